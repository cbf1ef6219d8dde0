//! Refusing a step that cannot fit: its per-device peak (the memory
//! report's figure) times the processes on this machine, against the
//! memory this job may use, before anything is compiled or run. Past that
//! point the kernel would kill the job, or an allocation would fail in the
//! middle of a step.

use crate::Error;
use dist_dialect::ir::{FunctionOpRef, symbol_name};
use dist_dialect::model::symbol_ref;
use dist_passes::analysis::memory_report::{self, Sizing, Usage};

/// `bytes` with a binary unit, e.g. `4.00 TiB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.2} {}", UNITS[unit])
    }
}

/// The memory this job may use: the machine's (`MemTotal`), or its cgroup's
/// limit where that is smaller (a container's); the bytes and what they
/// are, for the message.
pub fn available_memory() -> Option<(u64, &'static str)> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    let machine = (kib.saturating_mul(1024), "this machine has");
    // cgroup v2, then v1 (whose "no limit" is a number near 2^63).
    let limit = [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .find_map(|path| std::fs::read_to_string(path).ok()?.trim().parse::<u64>().ok());
    Some(match limit {
        Some(bytes) if bytes < machine.0 => (bytes, "this job's cgroup allows"),
        _ => machine,
    })
}

/// Why `usage`, on each of `processes` processes on a machine where
/// `memory` says how many bytes the job may use, does not fit, if it does
/// not.
pub fn overflow(step: &str, usage: &Usage, processes: u64, (memory, has): (u64, &str)) -> Option<String> {
    let per_device = usage.total();
    let all = per_device.saturating_mul(processes);
    if all <= memory {
        return None;
    }
    let many = if processes > 1 {
        format!(", {} for the {processes} processes on this machine", human_bytes(all))
    } else {
        String::new()
    };
    Some(format!(
        "{} needs {} per device at its peak (activations {} {}){many}, and {has} {} of memory: \
         refused before running (dist-opt --dist-memory-report shows where the bytes go; --no-memory-check \
         runs it anyway)",
        symbol_ref(step),
        human_bytes(per_device),
        human_bytes(usage.activations),
        usage.peak_at,
        human_bytes(memory)
    ))
}

/// Refuses `function` if its per-device peak on `processes` processes,
/// all on this machine, does not fit the memory the job may use. With one
/// process the function is the unpartitioned program: its values are
/// whole, whatever their shardings say.
pub fn check(function: FunctionOpRef<'_, '_>, processes: usize) -> Result<(), Error> {
    let sizing = if processes > 1 {
        Sizing::PerDevice
    } else {
        Sizing::OneDevice
    };
    let (Some((usage, _)), Some(memory)) = (memory_report::usage(function, sizing), available_memory()) else {
        return Ok(());
    };
    let step = symbol_name(&function.operation());
    match overflow(&step, &usage, processes as u64, memory) {
        Some(why) => Err(Error::Usage(why)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(activations: u64) -> Usage {
        Usage {
            parameters: 1024,
            activations,
            peak_at: "at dist.matmul (f.mlir:3:8)".into(),
            ..Usage::default()
        }
    }

    #[test]
    fn sizes_in_binary_units() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(4 << 40), "4.00 TiB");
    }

    #[test]
    fn a_step_fits_when_all_its_processes_fit() {
        let gib = 1 << 30;
        let machine = (8 * gib, "this machine has");
        assert_eq!(overflow("f", &usage(gib), 4, machine), None);
        let why = overflow("f", &usage(4 << 40), 1, machine).unwrap();
        assert!(
            why.starts_with("@f needs 4.00 TiB per device at its peak (activations 4.00 TiB at dist.matmul (f.mlir:3:8)), and this machine has 8.00 GiB"),
            "{why}"
        );
        // Each fits, eight together do not.
        let why = overflow("f", &usage(2 * gib), 8, machine).unwrap();
        assert!(
            why.contains(", 16.00 GiB for the 8 processes on this machine,"),
            "{why}"
        );
    }
}
