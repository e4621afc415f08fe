//! What every handler can reach: the store, the rulebooks and the clock.

use chrono::NaiveDateTime;
use outorga_rulebook::Library;
use outorga_store::Store;
use std::sync::Arc;

/// "Now", in UTC. The web layer reads the time only through this, so tests
/// can fix it.
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> NaiveDateTime;
}

/// The machine's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> NaiveDateTime {
        chrono::Utc::now().naive_utc()
    }
}

#[derive(Debug, Clone)]
pub struct AppState {
    pub store: Store,
    pub library: Arc<Library>,
    pub clock: Arc<dyn Clock>,
}

impl AppState {
    /// A state on the machine's clock.
    pub fn new(store: Store, library: Library) -> AppState {
        AppState {
            store,
            library: Arc::new(library),
            clock: Arc::new(SystemClock),
        }
    }

    /// The same state with another clock.
    pub fn with_clock(self, clock: Arc<dyn Clock>) -> AppState {
        AppState { clock, ..self }
    }
}
