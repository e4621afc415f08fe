//! Amounts as Brazilians read them, as the core writes them (`outorga_core::brl`).

pub use outorga_core::brl::{decimal, money};
