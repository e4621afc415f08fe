//! outorga-core: the domain, the calendar, money and the law engine.
//!
//! Pure by design: no IO, no async, no clock, no database or web crates. "Today"
//! and every date are inputs; a decision returns its result together with the
//! citations of the articles it rests on.

pub mod brl;
pub mod calendar;
pub mod context;
pub mod engine;
pub mod facts;
pub mod law_text;
pub mod model;
pub mod record;
mod vocab;

pub use context::{Applied, Context, EngineError, Overrides};
