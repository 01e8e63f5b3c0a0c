//! The bounded queue: at most `queue` requests in the house (one more is 503), `workers` of them
//! searching on blocking threads.

use super::*;

/// A place in the queue, or 503 when it is full.
pub(super) fn place(shared: &Arc<Shared>) -> Result<OwnedSemaphorePermit, ApiError> {
    Arc::clone(&shared.queue).try_acquire_owned().map_err(|_| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "busy: {} requests are already searching or waiting; try again",
                shared.cfg.queue
            ),
        )
    })
}

/// A worker, once one is free (the request holds its place in the queue meanwhile).
pub(super) async fn worker(shared: &Arc<Shared>) -> OwnedSemaphorePermit {
    Arc::clone(&shared.workers)
        .acquire_owned()
        .await
        .expect("the semaphore is never closed")
}

/// A request let in: its place in the queue and its worker (held until the work ends), and the
/// stop flag that dropping `on_drop` (the client going away) sets.
pub(super) struct Admitted {
    pub(super) permits: (OwnedSemaphorePermit, OwnedSemaphorePermit),
    pub(super) stop: Arc<AtomicBool>,
    pub(super) on_drop: StopOnDrop,
}

/// Lets a request in once the queue has room (503 when it has none) and a worker is free.
pub(super) async fn admit(shared: &Arc<Shared>) -> Result<Admitted, ApiError> {
    let place = place(shared)?;
    let busy = worker(shared).await;
    let stop = shared.request_flag()?;
    Ok(Admitted {
        permits: (place, busy),
        on_drop: StopOnDrop(Arc::clone(&stop)),
        stop,
    })
}

/// Runs `work` on a blocking thread holding `permits`, counted as running meanwhile.
pub(super) fn run_blocking<T: Send + 'static>(
    shared: &Arc<Shared>,
    permits: (OwnedSemaphorePermit, OwnedSemaphorePermit),
    work: impl FnOnce(&Shared) -> T + Send + 'static,
) -> tokio::task::JoinHandle<T> {
    let s = Arc::clone(shared);
    tokio::task::spawn_blocking(move || {
        let _permits = permits;
        s.running.fetch_add(1, Ordering::Relaxed);
        let r = work(&s);
        s.running.fetch_sub(1, Ordering::Relaxed);
        r
    })
}

/// Runs `work` on a blocking thread once the request is let in ([`admit`]); the flag is set
/// when the client goes away.
pub(super) async fn queued<T: Send + 'static>(
    shared: &Arc<Shared>,
    work: impl FnOnce(&Shared, &Arc<AtomicBool>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let Admitted {
        permits,
        stop,
        on_drop: _on_drop,
    } = admit(shared).await?;
    let joined = run_blocking(shared, permits, move |s| work(s, &stop)).await;
    let answer = joined.map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    // A search the server's stop cut short answers that, not a half-finished result.
    shared.check_running()?;
    answer
}
