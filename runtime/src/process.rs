//! Settings of the process a program runs in: the allocator keeps freed
//! memory, and subnormal floats flush to zero.

use std::ffi::c_int;

unsafe extern "C" {
    fn mallopt(param: c_int, value: c_int) -> c_int;
}

/// Keeps freed buffers in the process: glibc maps every allocation above
/// 128 KiB (an activation) afresh and unmaps it on free, so each step paid
/// a page fault per 4 KiB of every buffer (15% of the GPT step here). Runs
/// when a program loads the runtime.
extern "C" fn keep_freed_memory() {
    const M_TRIM_THRESHOLD: c_int = -1;
    const M_MMAP_THRESHOLD: c_int = -3;
    // SAFETY: plain settings; 32 MiB is glibc's largest mmap threshold.
    unsafe {
        mallopt(M_MMAP_THRESHOLD, 32 << 20);
        mallopt(M_TRIM_THRESHOLD, c_int::MAX);
    }
}

#[used]
#[unsafe(link_section = ".init_array")]
static KEEP_FREED_MEMORY: extern "C" fn() = keep_freed_memory;

/// Flushes subnormal floats to zero, in results (FTZ) and operands (DAZ),
/// on the calling thread and the threads it starts afterwards, as XLA's
/// CPU runtime does: an x86 core takes a microcode assist on every
/// subnormal, and gradients and their products reach them. On an Intel
/// Sapphire Rapids core the GPT step at hidden 512 ran 2.5x slower without
/// (docs/perf.md); the values flushed are below 1.2e-38. `dist-run`'s
/// `main` calls it before anything else, and compiles the program for
/// that mode (LLVM's `denormal-fp-math`); a program linking the runtime
/// otherwise keeps IEEE subnormals.
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_flush_subnormals() {
    #[cfg(target_arch = "x86_64")]
    {
        const FTZ: u32 = 1 << 15;
        const DAZ: u32 = 1 << 6;
        let mut csr = 0_u32;
        // SAFETY: reads and writes this thread's MXCSR through a live local.
        unsafe {
            std::arch::asm!("stmxcsr [{}]", in(reg) &mut csr, options(nostack));
            csr |= FTZ | DAZ;
            std::arch::asm!("ldmxcsr [{}]", in(reg) &csr, options(nostack, readonly));
        }
    }
}
