//! How `dist-run` starts a job of N processes: the MPI launcher
//! (`--mpiexec`, else `DIST_MPIEXEC`, else `mpiexec`), its flavour read
//! from its `--version`, and what that flavour needs.
//!
//! Open MPI's `mpiexec` refuses to run as root and to start more processes
//! than it counts slots (physical cores, fewer than the logical CPUs a
//! program sees on an SMT machine) unless told; MPICH's (Hydra) and other
//! PMI launchers need nothing. The runtime must be built against the same MPI
//! (it says so when it is not, see `dist-runtime`'s `check_launcher`).

use crate::Error;
use std::process::Command;

/// The MPI a launcher belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    OpenMpi,
    /// MPICH's Hydra, and launchers that are neither (Intel MPI, ...):
    /// `-n N` and nothing else.
    Other,
}

impl Flavour {
    /// From the launcher's `--version` output.
    pub fn from_version(text: &str) -> Self {
        if text.contains("Open MPI") || text.contains("OpenRTE") {
            Self::OpenMpi
        } else {
            Self::Other
        }
    }

    /// The arguments before the program for `processes` processes.
    pub fn arguments(self, processes: usize) -> Vec<String> {
        let mut args = vec!["-n".to_owned(), processes.to_string()];
        if self == Self::OpenMpi {
            args.push("--oversubscribe".to_owned());
        }
        args
    }

    /// Environment for the launcher: Open MPI runs as root only with both
    /// of these set (harmless for other users).
    pub fn environment(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::OpenMpi => &[("OMPI_ALLOW_RUN_AS_ROOT", "1"), ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")],
            Self::Other => &[],
        }
    }
}

/// The launcher command: `choice` (from `--mpiexec`), else the
/// `DIST_MPIEXEC` environment variable, else `mpiexec`; split on
/// whitespace, so that it may carry arguments of its own.
pub fn launcher_words(choice: Option<&str>) -> Vec<String> {
    let text = choice
        .map(str::to_owned)
        .or_else(|| std::env::var("DIST_MPIEXEC").ok().filter(|v| !v.trim().is_empty()))
        .unwrap_or_else(|| "mpiexec".to_owned());
    text.split_whitespace().map(str::to_owned).collect()
}

/// The command that runs `program` on `processes` processes.
pub fn command(choice: Option<&str>, processes: usize, program: &std::path::Path) -> Result<Command, Error> {
    let words = launcher_words(choice);
    let (launcher, own) = words
        .split_first()
        .ok_or_else(|| Error::Usage("--mpiexec is empty".into()))?;
    let version = Command::new(launcher)
        .args(own)
        .arg("--version")
        .output()
        .map_err(|e| Error::Usage(format!("cannot run the MPI launcher '{launcher}': {e}")))?;
    let text = String::from_utf8_lossy(&version.stdout) + String::from_utf8_lossy(&version.stderr);
    let flavour = Flavour::from_version(&text);
    let mut command = Command::new(launcher);
    command
        .args(own)
        .args(flavour.arguments(processes))
        .arg(program)
        .envs(flavour.environment().iter().copied());
    Ok(command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flavours_from_their_version_text() {
        assert_eq!(
            Flavour::from_version("mpiexec (OpenRTE) 4.1.4\n\nReport bugs to http://www.open-mpi.org/"),
            Flavour::OpenMpi
        );
        assert_eq!(Flavour::from_version("mpiexec (Open MPI) 5.0.3"), Flavour::OpenMpi);
        assert_eq!(
            Flavour::from_version("HYDRA build details:\n    Version: 4.0.2"),
            Flavour::Other
        );
    }

    #[test]
    fn open_mpi_may_oversubscribe() {
        assert_eq!(Flavour::OpenMpi.arguments(4), ["-n", "4", "--oversubscribe"]);
        assert_eq!(Flavour::Other.arguments(4), ["-n", "4"]);
        assert!(Flavour::Other.environment().is_empty());
        assert_eq!(Flavour::OpenMpi.environment().len(), 2);
    }

    #[test]
    fn the_option_wins_and_may_carry_arguments() {
        assert_eq!(
            launcher_words(Some("mpiexec.openmpi --bind-to none")),
            ["mpiexec.openmpi", "--bind-to", "none"]
        );
    }
}
