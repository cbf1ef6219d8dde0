//! Libraries loaded at run time (`dlopen`), so that nothing needs CUDA or
//! NCCL to build and a machine without them gets a clear error.

use std::ffi::{CStr, CString, c_char, c_int, c_void};

unsafe extern "C" {
    fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}

const RTLD_NOW: c_int = 2;
const RTLD_GLOBAL: c_int = 0x100;

/// A loaded library; never unloaded (its functions live in static tables).
pub struct Library {
    name: &'static str,
    handle: *mut c_void,
}

// SAFETY: a dlopen handle may be used from any thread.
unsafe impl Send for Library {}
unsafe impl Sync for Library {}

fn last_error() -> String {
    // SAFETY: dlerror returns null or a C string valid until the next call.
    unsafe {
        let message = dlerror();
        if message.is_null() {
            "unknown error".to_owned()
        } else {
            CStr::from_ptr(message).to_string_lossy().into_owned()
        }
    }
}

impl Library {
    /// Loads `name` (a soname such as `libcuda.so.1`).
    pub fn open(name: &'static str) -> Result<Self, String> {
        let c_name = CString::new(name).map_err(|e| e.to_string())?;
        // SAFETY: a valid C string; dlopen reports failure with null.
        let handle = unsafe { dlopen(c_name.as_ptr(), RTLD_NOW | RTLD_GLOBAL) };
        if handle.is_null() {
            return Err(last_error());
        }
        Ok(Self { name, handle })
    }

    /// The address of `symbol`.
    pub fn symbol(&self, symbol: &str) -> Result<*mut c_void, String> {
        let c_symbol = CString::new(symbol).map_err(|e| e.to_string())?;
        // SAFETY: the handle is live; dlsym reports failure with null.
        let address = unsafe { dlsym(self.handle, c_symbol.as_ptr()) };
        if address.is_null() {
            return Err(format!("{} has no {symbol}", self.name));
        }
        Ok(address)
    }
}

/// Declares a table of C functions of one library, loaded by symbol name.
macro_rules! library {
    ($(#[$meta:meta])* $table:ident { $($name:ident: fn($($arg:ty),*) -> $ret:ty;)* }) => {
        $(#[$meta])*
        #[allow(non_snake_case)]
        pub struct $table {
            $(pub $name: unsafe extern "C" fn($($arg),*) -> $ret,)*
        }

        impl $table {
            fn load(library: &$crate::dl::Library) -> Result<Self, String> {
                Ok(Self {
                    // SAFETY: each symbol has the C signature declared here
                    // (the library's ABI, as each table's documentation says).
                    $($name: unsafe {
                        std::mem::transmute::<*mut std::ffi::c_void, unsafe extern "C" fn($($arg),*) -> $ret>(
                            library.symbol(stringify!($name))?,
                        )
                    },)*
                })
            }
        }
    };
}
pub(crate) use library;

#[cfg(test)]
mod tests {
    use super::Library;

    #[test]
    fn a_missing_library_is_an_error_naming_it() {
        let error = Library::open("libdist-no-such-library.so.1")
            .err()
            .expect("no such library");
        assert!(error.contains("libdist-no-such-library.so.1"), "{error}");
    }

    #[test]
    fn symbols_resolve_and_a_missing_one_is_named() {
        let libc = Library::open("libc.so.6").expect("glibc");
        assert!(libc.symbol("strlen").is_ok());
        assert_eq!(
            libc.symbol("dist_no_such_symbol").err().unwrap(),
            "libc.so.6 has no dist_no_such_symbol"
        );
    }
}
