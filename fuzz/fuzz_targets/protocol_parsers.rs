//! Any bytes, as one input line (decoded the way the engine decodes stdin):
//! the UCI and Hub parsers, the Hub position and move readers, option
//! setting and `position` building must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    for l in line.split('\n') {
        tama_protocol::exercise_parsers(l.trim_end_matches('\r'));
    }
});
