//! How deep a search may recurse on the thread it runs on: the lowest stack address it may
//! reach, so that a line of play deeper than the thread's stack (a game that does not end, or
//! an enormous horizon) stops the search with [`crate::Error::LineTooDeep`] instead of
//! overflowing the stack, which aborts the whole process and cannot be caught.
//!
//! The check is the [`crate::limits::Budget`]'s, made at every node every family visits: the
//! stack pointer against a floor found once per thread. Below the floor stays a reserve for the
//! frames between two checks (one node's work, the game's `moves`/`play`/`evaluate`) and for
//! the unwinding that follows the stop.

use std::cell::Cell;

/// Kept below the floor: the most one node and the game's calls may use between two checks.
const RESERVE: usize = 256 << 10;

/// Used where the thread's stack cannot be asked: the stack the search may use below the point
/// where its budget was made (Rust's threads get 2 MiB by default).
const ASSUMED: usize = 1 << 20;

thread_local! {
    /// This thread's stack: (lowest address, size), 0 until asked.
    static BOUNDS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// The stack pointer, or an address within the caller's frame.
#[inline(always)]
pub(crate) fn pointer() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let sp: usize;
        // SAFETY: reads a register; touches no memory.
        unsafe {
            std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags));
        }
        sp
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let marker = 0u8;
        std::hint::black_box(&marker) as *const u8 as usize
    }
}

/// This thread's stack as the system describes it: (lowest address, size).
#[cfg(target_os = "linux")]
fn ask_bounds() -> Option<(usize, usize)> {
    // SAFETY: the attribute object is initialised by pthread_getattr_np before it is read and
    // destroyed once; both out-pointers are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        (ok && !addr.is_null() && size > 0).then_some((addr as usize, size))
    }
}

#[cfg(not(target_os = "linux"))]
fn ask_bounds() -> Option<(usize, usize)> {
    None
}

/// The lowest address a search starting here may reach, and the size of the stack that it
/// protects (for the error's message).
pub(crate) fn floor() -> (usize, usize) {
    let here = pointer();
    let (low, size) = BOUNDS.with(|b| {
        if b.get().1 == 0 {
            // Asked once per thread: on the main thread glibc reads /proc/self/maps to answer.
            b.set(ask_bounds().unwrap_or((0, usize::MAX)));
        }
        b.get()
    });
    if size == usize::MAX || here < low || here - low > size {
        // Unknown, or not the stack the system described (a user's own stack switching).
        return (here.saturating_sub(ASSUMED), ASSUMED);
    }
    // A small stack keeps half of itself in reserve.
    let reserve = RESERVE.min(size / 2);
    (low + reserve, size)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The floor lies below the caller and leaves most of a thread's stack to the search,
    /// whatever the thread's size.
    #[test]
    fn the_floor_leaves_most_of_the_stack() {
        for size in [128 << 10, 2 << 20, 64 << 20] {
            let (floor, whole) = std::thread::Builder::new()
                .stack_size(size)
                .spawn(|| {
                    let (floor, whole) = floor();
                    (pointer() - floor, whole)
                })
                .unwrap()
                .join()
                .unwrap();
            assert!(whole >= size, "{whole} < {size}");
            assert!(floor >= size / 3, "only {floor} of {size} usable");
            assert!(floor < whole, "{floor} past the stack of {whole}");
        }
    }
}
