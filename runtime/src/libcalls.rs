//! Compiler support functions that compiled programs may call and that the
//! toolchain's libgcc lacks. LLVM lowers an `fptrunc` to bfloat16 on an
//! x86 CPU without AVX512-BF16 to a call of `__truncsfbf2`, which GCC 13's
//! libgcc and compiler-rt define and Debian 12's GCC 12 does not: without
//! this, a bf16 program compiled for such a CPU (`--mcpu native` on one,
//! or `x86-64-v3`) would not link.

/// f32 to bf16, rounded to nearest even (NaNs stay NaNs, quiet).
///
/// The x86-64 psABI returns a `__bf16` in the low 16 bits of XMM0, where an
/// f32 return value with those bits in its low half puts them.
#[cfg(target_arch = "x86_64")]
#[unsafe(no_mangle)]
pub extern "C" fn __truncsfbf2(value: f32) -> f32 {
    f32::from_bits(u32::from(dist_npy::f32_to_bf16(value)))
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_nearest_even_in_the_low_half() {
        let bf16 = |v: f32| __truncsfbf2(v).to_bits();
        assert_eq!(bf16(1.0), 0x3f80);
        // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to the even, 1.
        assert_eq!(bf16(1.0 + 1.0 / 256.0), 0x3f80);
        assert_eq!(bf16(1.0 + 3.0 / 256.0), 0x3f82);
        assert_eq!(bf16(-2.5), 0xc020);
        assert_eq!(bf16(f32::NAN) & 0x7fc0, 0x7fc0);
    }
}
