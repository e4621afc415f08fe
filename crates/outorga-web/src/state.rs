//! What every handler can reach: the store, the rulebooks, the clock, and
//! the server's limits and counters.

use crate::limits::{Limits, PublicRate};
use crate::metrics::Metrics;
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
    pub limits: Limits,
    /// What this process counts (shared with the server's connections).
    pub metrics: Arc<Metrics>,
    pub(crate) public_rate: Arc<PublicRate>,
    pub(crate) filing_rate: Arc<PublicRate>,
    /// Where the public reaches this deployment (`https://transporte.cidade.gov.br`,
    /// no trailing slash): the papers' QR codes and verification text point
    /// there.
    pub public_url: Arc<str>,
}

impl AppState {
    /// A state on the machine's clock, with the default limits.
    pub fn new(store: Store, library: Library) -> AppState {
        AppState {
            store,
            library: Arc::new(library),
            clock: Arc::new(SystemClock),
            limits: Limits::DEFAULT,
            metrics: Arc::new(Metrics::default()),
            public_rate: Arc::new(PublicRate::new(&Limits::DEFAULT)),
            filing_rate: Arc::new(PublicRate::filings(&Limits::DEFAULT)),
            public_url: Arc::from(AppState::LOCAL_URL),
        }
    }

    /// The public address until a deployment names its own.
    pub const LOCAL_URL: &str = "http://localhost:8080";

    /// The same state with the deployment's public address (a trailing
    /// slash is dropped).
    pub fn with_public_url(self, url: &str) -> AppState {
        AppState {
            public_url: Arc::from(url.trim().trim_end_matches('/')),
            ..self
        }
    }

    /// The same state with other limits.
    pub fn with_limits(self, limits: Limits) -> AppState {
        AppState {
            limits,
            public_rate: Arc::new(PublicRate::new(&limits)),
            filing_rate: Arc::new(PublicRate::filings(&limits)),
            ..self
        }
    }

    /// The same state on another store (the same database with other
    /// settings, as another password queue).
    pub fn with_store(self, store: Store) -> AppState {
        AppState { store, ..self }
    }

    /// The same state with another clock.
    pub fn with_clock(self, clock: Arc<dyn Clock>) -> AppState {
        AppState { clock, ..self }
    }
}
