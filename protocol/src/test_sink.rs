//! An output the unit tests can hand to the session and read back.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

/// Bytes written through any clone, readable from every clone.
#[derive(Clone, Default)]
pub(crate) struct SharedSink(Arc<Mutex<Vec<u8>>>);

impl SharedSink {
    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

impl Write for SharedSink {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
