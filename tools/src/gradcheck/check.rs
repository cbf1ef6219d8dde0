//! One check: a program's loss and gradients from `dist-run --grad` in a
//! lowering mode, against the float64 reference on the same inputs.

use super::program::{Data, Element, Program};
use super::reference::{Tensor, finite_difference, kink_margin, loss};
use crate::fuzz::mutate::Rng;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How `dist-run` compiles and runs a program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mode {
    /// `-n`: 1 runs the global program; more, the mesh's partitioned one.
    pub devices: usize,
    /// `-O2` or `-O3`.
    pub opt: u8,
    /// Identical layers outlined (dist-run's default) or kept inline.
    pub outline: bool,
    /// `--recompute`: the backward recomputes the activations.
    pub recompute: bool,
}

impl Mode {
    pub const DEFAULT: Mode = Mode {
        devices: 1,
        opt: 2,
        outline: true,
        recompute: false,
    };

    /// Modes that together take each setting both ways on one device and
    /// on `devices` (if more than 1): `-O2` and `-O3`, layers outlined and
    /// inline, activations recomputed and not. Six modes where [`Mode::all`]
    /// has ten.
    pub fn covering(devices: usize) -> Vec<Mode> {
        let mode = |devices, opt, outline, recompute| Mode {
            devices,
            opt,
            outline,
            recompute,
        };
        let mut modes = vec![
            mode(1, 2, true, false),
            mode(1, 3, false, false),
            mode(1, 2, true, true),
        ];
        if devices > 1 {
            modes.extend([
                mode(devices, 2, false, false),
                mode(devices, 3, true, false),
                mode(devices, 2, true, true),
            ]);
        }
        modes
    }

    /// Every mode of a program on `devices` (1 if it has no mesh): `-O2`
    /// and `-O3` each with layers outlined and inline, and recomputation,
    /// on one device and on `devices`.
    pub fn all(devices: usize) -> Vec<Mode> {
        let mut modes = Vec::new();
        for n in if devices > 1 { vec![1, devices] } else { vec![1] } {
            for opt in [2, 3] {
                for outline in [true, false] {
                    modes.push(Mode {
                        devices: n,
                        opt,
                        outline,
                        recompute: false,
                    });
                }
            }
            modes.push(Mode {
                devices: n,
                recompute: true,
                ..Mode::DEFAULT
            });
        }
        modes
    }

    fn flags(self) -> Vec<String> {
        let mut flags = vec!["-n".to_owned(), self.devices.to_string(), format!("-O{}", self.opt)];
        if !self.outline {
            flags.push("--no-outline-layers".into());
        }
        if self.recompute {
            flags.push("--recompute".into());
        }
        flags
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.flags().join(" "))
    }
}

/// What a check found.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Within tolerance; the largest error relative to its scale.
    Match(f64),
    /// A loss or a gradient differs: which, by how much.
    Mismatch(String),
    /// The compiler refused the program with a diagnostic.
    Refused(String),
    /// dist-run crashed, or an internal error.
    Failed(String),
}

impl Verdict {
    /// A wrong result or a crash: what the checks exist to find.
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Mismatch(_) | Verdict::Failed(_))
    }
}

/// The tolerance of a float32 result against the float64 reference, as a
/// fraction of its scale (see [`compare`]).
pub const TOLERANCE: f64 = 2e-3;

/// Inputs at which the reference is smooth: drawn from `seed`, each float
/// rounded to float32 (the program's own inputs); `None` if every draw
/// falls near a kink.
pub fn inputs(program: &Program, seed: u64) -> Option<Vec<Tensor>> {
    (0..8).find_map(|attempt| {
        let mut rng = Rng::for_input(seed, attempt);
        let inputs: Vec<Tensor> = program
            .args
            .iter()
            .map(|a| {
                let n: usize = a.shape.iter().product();
                let mut data: Vec<f64> = (0..n)
                    .map(|_| match a.data {
                        Data::Uniform(lo, hi) => {
                            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                            f64::from((lo + (hi - lo) * u) as f32)
                        }
                        Data::Below(n) => rng.below(n as usize) as f64,
                        Data::Labels { below, ignored } => {
                            let label = rng.below(below as usize) as f64;
                            if rng.below(4) == 0 { ignored as f64 } else { label }
                        }
                    })
                    .collect();
                // Some label counts: the mean over none is NaN.
                if let (Data::Labels { ignored, .. }, Some(first)) = (a.data, data.first_mut())
                    && *first == ignored as f64
                {
                    *first = 0.0;
                }
                Tensor::new(a.shape.clone(), data)
            })
            .collect();
        let smooth = kink_margin(program, &inputs) > 1e-3;
        let finite = loss(program, &inputs).is_finite();
        (smooth && finite).then_some(inputs)
    })
}

/// The reference loss and gradients (in `grad_args` order).
pub fn reference(program: &Program, inputs: &[Tensor]) -> (f64, Vec<Tensor>) {
    let gradients = program
        .grad_args()
        .into_iter()
        .map(|a| finite_difference(program, inputs, a))
        .collect();
    (loss(program, inputs), gradients)
}

/// Writes `text` (the program's MLIR) and the inputs into `dir`
/// (`program.mlir`, `in/<argument>.npy`).
pub fn write(text: &str, program: &Program, inputs: &[Tensor], dir: &Path) -> std::io::Result<()> {
    let input_dir = dir.join("in");
    std::fs::create_dir_all(&input_dir)?;
    std::fs::write(dir.join("program.mlir"), text)?;
    for (arg, tensor) in program.args.iter().zip(inputs) {
        let path = input_dir.join(format!("{}.npy", arg.name));
        let path = path.to_string_lossy();
        let shape: Vec<i64> = arg.shape.iter().map(|&d| d as i64).collect();
        let written = match arg.element {
            Element::F32 => {
                let values: Vec<f32> = tensor.data.iter().map(|&v| v as f32).collect();
                dist_npy::write(&path, &shape, &values)
            }
            Element::I64 => {
                let values: Vec<i64> = tensor.data.iter().map(|&v| v as i64).collect();
                dist_npy::write(&path, &shape, &values)
            }
            Element::I32 => {
                let values: Vec<i32> = tensor.data.iter().map(|&v| v as i32).collect();
                dist_npy::write(&path, &shape, &values)
            }
            Element::I1 => {
                let values: Vec<dist_npy::Bool> = tensor
                    .data
                    .iter()
                    .map(|&v| dist_npy::Bool(u8::from(v != 0.0)))
                    .collect();
                dist_npy::write(&path, &shape, &values)
            }
        };
        written.map_err(std::io::Error::other)?;
    }
    Ok(())
}

/// The `dist-run` beside this binary.
pub fn dist_run() -> PathBuf {
    let exe = std::env::current_exe().expect("the running binary");
    exe.with_file_name("dist-run")
}

/// Runs function `entry` of the program written in `dir` in `mode`; its
/// results (the loss, then the gradients), or the verdict that stopped it.
pub fn run(dir: &Path, entry: &str, mode: Mode, results: usize) -> Result<Vec<Vec<f64>>, Verdict> {
    let out = dir.join(format!("out-{}", mode.flags().join("").replace('-', "")));
    let _ = std::fs::remove_dir_all(&out);
    let output = Command::new(dist_run())
        .arg(dir.join("program.mlir"))
        .args(["--entry", entry, "--grad", "--input-dir"])
        .arg(dir.join("in"))
        .arg("--out")
        .arg(&out)
        .args(mode.flags())
        .output()
        .map_err(|e| Verdict::Failed(format!("dist-run does not start: {e}")))?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    if !output.status.success() {
        let internal = stderr.contains("internal error") || stderr.contains("panicked");
        let killed = output.status.code().is_none();
        let first = stderr
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or(stderr.lines().next().unwrap_or(""))
            .to_owned();
        return Err(if internal || killed || first.is_empty() {
            Verdict::Failed(format!("dist-run {mode}: {} {stderr}", output.status))
        } else {
            Verdict::Refused(first)
        });
    }
    (0..results)
        .map(|k| {
            let path = out.join(format!("result{k}.npy"));
            dist_npy::read(&path.to_string_lossy())
                .map(|a| a.to_f64())
                .map_err(|e| Verdict::Failed(format!("dist-run {mode}: {e}")))
        })
        .collect()
}

/// The largest difference of `got` from `expected`, relative to the scale
/// `max(max |expected|, floor)`.
fn relative_error(got: &[f64], expected: &[f64], floor: f64) -> f64 {
    let scale = expected.iter().fold(floor, |m, v| m.max(v.abs()));
    got.iter()
        .zip(expected)
        .map(|(g, e)| {
            if g.is_finite() {
                (g - e).abs() / scale
            } else {
                f64::INFINITY
            }
        })
        .fold(0.0, f64::max)
}

/// `dist-run`'s results against the reference: the loss relative to
/// `max(1, |loss|)`, each gradient relative to its own largest entry or,
/// if larger, a hundredth of the largest entry of any gradient or 1e-3 (a
/// gradient that is 0 or tiny is compared at the program's scale, where
/// float32 rounding leaves ~1e-7 in a gradient that cancels to 0).
pub fn compare(got: &[Vec<f64>], (expected_loss, expected): &(f64, Vec<Tensor>), names: &[String]) -> Verdict {
    let mut worst = relative_error(&got[0], &[*expected_loss], 1.0);
    if worst > TOLERANCE {
        return Verdict::Mismatch(format!("loss {} where the reference is {expected_loss}", got[0][0]));
    }
    let largest = expected
        .iter()
        .flat_map(|g| g.data.iter())
        .fold(0.0f64, |m, v| m.max(v.abs()));
    for ((g, e), name) in got[1..].iter().zip(expected).zip(names) {
        let error = relative_error(g, &e.data, (largest / 100.0).max(1e-3));
        if error > TOLERANCE {
            let (at, _) = g
                .iter()
                .zip(&e.data)
                .enumerate()
                .map(|(k, (g, e))| (k, (g - e).abs()))
                .fold(
                    (0, -1.0),
                    |best, (k, d)| if d > best.1 || d.is_nan() { (k, d) } else { best },
                );
            return Verdict::Mismatch(format!(
                "gradient of %{name}: relative error {error:.3e}; entry {at} is {} where the reference is {}",
                g[at], e.data[at]
            ));
        }
        worst = worst.max(error);
    }
    Verdict::Match(worst)
}
