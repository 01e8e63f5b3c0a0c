//! JSON bodies for the errors hyper answers itself.
//!
//! A request hyper cannot parse (a malformed request line, more headers than it reads) never
//! reaches a route: hyper writes `400 Bad Request` or `431 Request Header Fields Too Large` with
//! `content-length: 0` and closes the connection. Every other error of the server is
//! `{"error": "…"}`, so the connection's writer looks for exactly that answer — a whole 4xx/5xx
//! head with `content-length: 0` and nothing after it, which no route sends — and gives it the
//! same JSON body. Everything else passes through untouched.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// The server's listener: TCP connections whose bare error answers get a JSON body.
pub struct Listener(pub TcpListener);

impl axum::serve::Listener for Listener {
    type Io = JsonErrors<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.0).await;
        (JsonErrors::new(io), addr)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

/// A connection whose bare error answers (see the module) get a JSON body.
pub struct JsonErrors<T> {
    inner: T,
    /// A rewritten answer still to send, and how much of it has gone.
    pending: Vec<u8>,
    sent: usize,
}

impl<T> JsonErrors<T> {
    pub fn new(inner: T) -> Self {
        JsonErrors {
            inner,
            pending: Vec::new(),
            sent: 0,
        }
    }
}

/// `answer` with a JSON body, when it is a bare error head; `None` for anything else.
fn with_json_body(answer: &[u8]) -> Option<Vec<u8>> {
    let head = std::str::from_utf8(answer).ok()?;
    // The whole answer is one head: a route's answer has a body after it.
    if !head.ends_with("\r\n\r\n") || head.matches("\r\n\r\n").count() != 1 {
        return None;
    }
    let mut status = head.lines().next()?.splitn(3, ' ');
    let (_, code, reason) = (status.next()?, status.next()?, status.next().unwrap_or(""));
    let code: u16 = code.parse().ok()?;
    const EMPTY: &str = "\r\ncontent-length: 0\r\n";
    if !(400..600).contains(&code) || !head.contains(EMPTY) {
        return None;
    }
    let error = match code {
        400 => {
            "malformed HTTP request (not a request line and headers this server can read)".into()
        }
        431 => "request header fields too large: at most 100 headers".into(),
        _ => format!("{code} {reason}"),
    };
    let body = serde_json::json!({ "error": error }).to_string();
    let typed = format!(
        "\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
        body.len()
    );
    Some((head.replacen(EMPTY, &typed, 1) + &body).into_bytes())
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    /// Sends what is left of a rewritten answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        self.pending.clear();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        match with_json_body(buf) {
            Some(answer) => {
                // Taken whole; what the socket does not take now goes at the next write, flush
                // or shutdown (hyper flushes before it closes).
                this.pending = answer;
                if let Poll::Ready(Err(e)) = this.drain(cx) {
                    return Poll::Ready(Err(e));
                }
                Poll::Ready(Ok(buf.len()))
            }
            None => Pin::new(&mut this.inner).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::with_json_body;

    #[test]
    fn a_bare_error_head_gets_a_json_body_and_nothing_else_changes() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(with_json_body(bare).unwrap()).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.contains("content-type: application/json"), "{head}");
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("100 headers"), "{v}");
        // A route's answers: with a body, or a success.
        let routed = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 11\r\n\r\n{\"error\":1}";
        assert_eq!(with_json_body(routed), None);
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(with_json_body(ok), None);
        assert_eq!(
            with_json_body(b"HTTP/1.1 400 Bad"),
            None,
            "not a whole head"
        );
    }
}
