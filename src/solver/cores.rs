//! Which cores a test's threads run on: the helpers are woken off the main thread's core.
//!
//! Linux put a woken helper on the core of the main thread that woke it about one time in four
//! here (a 2-core virtual machine), and left it there for the whole test: on 4x6 at two
//! threads those runs searched on one core, 26,207 nodes in 4.2-4.4 ms, against 30 k nodes in
//! 2.4-2.9 ms when the helper ran beside the main thread. So before each test the main thread
//! narrows its helpers' cores to all it may use but its own ([`Cores::keep_off_this_core`]);
//! the system moves them there as it wakes them, and each helper widens its cores back as soon
//! as it runs ([`Cores::free_this_thread`]), so the system may place it as it likes from then
//! on. Elsewhere than Linux, and where only one core is allowed, nothing is done.

#[cfg(target_os = "linux")]
mod imp {
    use std::sync::{Mutex, PoisonError};

    /// The helpers' thread ids and the cores the process may use.
    pub(in crate::solver) struct Cores {
        helpers: Mutex<Vec<libc::pid_t>>,
        allowed: Option<libc::cpu_set_t>,
    }

    impl Cores {
        /// The cores the calling thread may use; no helpers yet.
        pub(in crate::solver) fn new() -> Cores {
            // SAFETY: an all-zero `cpu_set_t` is an empty set, and the call writes at most
            // `size_of::<cpu_set_t>()` bytes into it.
            let allowed = unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                let got = libc::sched_getaffinity(0, std::mem::size_of_val(&set), &mut set);
                (got == 0 && libc::CPU_COUNT(&set) > 1).then_some(set)
            };
            Cores {
                helpers: Mutex::new(Vec::new()),
                allowed,
            }
        }

        /// Counts the calling thread among the helpers (called as each starts).
        pub(in crate::solver) fn register_this_thread(&self) {
            // SAFETY: gettid has no preconditions.
            let id = unsafe { libc::gettid() };
            self.lock().push(id);
        }

        /// Narrows the helpers' cores to the allowed ones but the calling thread's.
        pub(in crate::solver) fn keep_off_this_core(&self) {
            let Some(mut set) = self.allowed else { return };
            // SAFETY: sched_getcpu has no preconditions; CPU_CLR and CPU_COUNT read and write
            // only the set, and sched_setaffinity reads `size_of::<cpu_set_t>()` bytes of it.
            unsafe {
                let Ok(core) = usize::try_from(libc::sched_getcpu()) else {
                    return;
                };
                libc::CPU_CLR(core, &mut set);
                if libc::CPU_COUNT(&set) == 0 {
                    return;
                }
                for &id in self.lock().iter() {
                    // (A failure leaves the helper where the system puts it.)
                    libc::sched_setaffinity(id, std::mem::size_of_val(&set), &set);
                }
            }
        }

        /// Widens the calling thread's cores back to all allowed ones.
        pub(in crate::solver) fn free_this_thread(&self) {
            if let Some(set) = &self.allowed {
                // SAFETY: sched_setaffinity reads `size_of::<cpu_set_t>()` bytes of the set.
                unsafe { libc::sched_setaffinity(0, std::mem::size_of_val(set), set) };
            }
        }

        fn lock(&self) -> std::sync::MutexGuard<'_, Vec<libc::pid_t>> {
            self.helpers.lock().unwrap_or_else(PoisonError::into_inner)
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    /// Nothing to keep: the system places the threads.
    pub(in crate::solver) struct Cores;

    impl Cores {
        pub(in crate::solver) fn new() -> Cores {
            Cores
        }
        pub(in crate::solver) fn register_this_thread(&self) {}
        pub(in crate::solver) fn keep_off_this_core(&self) {}
        pub(in crate::solver) fn free_this_thread(&self) {}
    }
}

pub(super) use imp::Cores;
