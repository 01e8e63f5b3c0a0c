//! What the machine can hold: its physical memory, so that tables and trees larger than it are
//! refused with an error instead of an abort (or hours of swapping).

/// The machine's physical memory in bytes, when the platform says (Linux: `sysinfo`).
pub(crate) fn physical_bytes() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `sysinfo` only writes the struct it is given.
        let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
        if unsafe { libc::sysinfo(&mut info) } == 0 {
            return usize::try_from(info.totalram as u64 * u64::from(info.mem_unit)).ok();
        }
        None
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// Memory the system can give without swapping (Linux: `MemAvailable` of `/proc/meminfo`,
/// which counts free memory and the caches it can drop), when the platform says.
pub(crate) fn available_bytes() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        usize::try_from(kib.checked_mul(1024)?).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The tree budget of proof-number and conspiracy search when the user gave none: three
/// quarters of the memory available now (`MemAvailable`; physical memory where the system does
/// not say), so that an unbounded search ends with "budget exhausted" and its result so far
/// instead of growing into swap or being killed by the system.
pub(crate) fn default_tree_budget() -> Option<usize> {
    available_bytes().or_else(physical_bytes).map(|b| b / 4 * 3)
}

/// Checks a memory budget a user asked for against the machine.
pub(crate) fn check_budget(what: &'static str, bytes: usize) -> Result<(), crate::Error> {
    match physical_bytes() {
        Some(total) if bytes > total => Err(crate::Error::OutOfMemory {
            what,
            requested: bytes,
            available: Some(total),
        }),
        _ => Ok(()),
    }
}
