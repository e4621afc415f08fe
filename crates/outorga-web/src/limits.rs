//! What the server accepts before it refuses: connection and request
//! limits, and the rate of public look-ups per client.
//!
//! Every limit is kept by this process alone: several servers on one
//! database each count their own connections and look-ups.

use crate::client::ClientIp;
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use governor::clock::Clock as _;
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The server's limits. [`Limits::DEFAULT`] holds the defaults; `outorga
/// serve` sets each from a flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// How long a client may take to send a request's headers, counted
    /// from the connection's opening or, on a kept-alive connection, from
    /// the end of the previous answer: so it is also how long an idle
    /// kept-alive connection stays open. Past it the connection is closed.
    /// Default 10 s.
    pub header_read_timeout: Duration,
    /// How long a request may take once its headers are in, reading its
    /// body included; past it the answer is 503. Default 30 s.
    pub request_timeout: Duration,
    /// The largest request body; a larger one is answered 413.
    /// Default 256 KiB.
    pub body_bytes: usize,
    /// Open connections at most, in all. Default 512.
    pub connections: usize,
    /// Open connections at most from one client address (an IPv4 address or
    /// an IPv6 /64), so one client cannot take every slot. Not applied
    /// behind a reverse proxy, whose connections all come from one address.
    /// Default 64.
    pub connections_per_client: usize,
    /// Public look-ups (`/api/public/*`) a client may make at once…
    /// Default 30.
    pub public_burst: NonZeroU32,
    /// …and then per second. Default 5.
    pub public_per_second: NonZeroU32,
    /// Public filings (a passenger's complaint) a client may make at once…
    /// Default 3.
    pub filing_burst: NonZeroU32,
    /// …and then per hour. Default 6.
    pub filings_per_hour: NonZeroU32,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        header_read_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(30),
        body_bytes: 256 * 1024,
        connections: 512,
        connections_per_client: 64,
        public_burst: nonzero(30),
        public_per_second: nonzero(5),
        filing_burst: nonzero(3),
        filings_per_hour: nonzero(6),
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

const fn nonzero(n: u32) -> NonZeroU32 {
    match NonZeroU32::new(n) {
        Some(n) => n,
        None => NonZeroU32::MIN,
    }
}

/// The answer to a request that ran out of time. Its handler is dropped: a
/// transaction still open rolls back, one already committed stays.
pub(crate) async fn timed_out(_: tower::BoxError) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "a requisição demorou demais e foi interrompida; se era uma mudança, confira se \
         ela foi gravada antes de repeti-la",
    )
}

/// How many checks go by between two sweeps of the clients the public
/// rate limiter no longer needs to remember (its memory stays bounded by
/// the clients of the last few seconds).
const SWEEP_EVERY: u64 = 4096;

/// The rate of public look-ups, per client key ([`ClientIp::key`]), in
/// this process (governor's GCRA limiter: a burst, then a steady rate).
#[derive(Debug)]
pub(crate) struct PublicRate {
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    checks: AtomicU64,
}

impl PublicRate {
    pub(crate) fn new(limits: &Limits) -> PublicRate {
        PublicRate::with(
            Quota::per_second(limits.public_per_second).allow_burst(limits.public_burst),
        )
    }

    /// The rate of public filings: a few, then some per hour.
    pub(crate) fn filings(limits: &Limits) -> PublicRate {
        PublicRate::with(Quota::per_hour(limits.filings_per_hour).allow_burst(limits.filing_burst))
    }

    fn with(quota: Quota) -> PublicRate {
        PublicRate {
            limiter: DefaultKeyedRateLimiter::keyed(quota),
            checks: AtomicU64::new(0),
        }
    }

    /// Whether `client` may look up now; if not, how long until it may.
    fn check(&self, client: ClientIp) -> Result<(), Duration> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        self.limiter
            .check_key(&client.key())
            .map_err(|not_until| not_until.wait_time_from(self.limiter.clock().now()))
    }
}

/// The right to a public look-up: the handlers of `/api/public/*` take it
/// first. Past the client's rate the answer is 429 with `Retry-After`.
#[derive(Debug, Clone, Copy)]
pub struct PublicLookup;

impl FromRequestParts<AppState> for PublicLookup {
    type Rejection = TooManyRequests;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<PublicLookup, TooManyRequests> {
        state
            .public_rate
            .check(ClientIp::of(parts))
            .map(|()| PublicLookup)
            .map_err(|wait| {
                state.metrics.rate_limited();
                TooManyRequests::lookups(wait)
            })
    }
}

/// The right to file something public (a passenger's complaint): the
/// handler takes it after [`PublicLookup`]. Past the client's rate of
/// filings (a few, then some per hour, counted by this process) the answer
/// is 429 with `Retry-After`.
#[derive(Debug, Clone, Copy)]
pub struct PublicFiling;

impl FromRequestParts<AppState> for PublicFiling {
    type Rejection = TooManyRequests;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<PublicFiling, TooManyRequests> {
        state
            .filing_rate
            .check(ClientIp::of(parts))
            .map(|()| PublicFiling)
            .map_err(|wait| {
                state.metrics.rate_limited();
                TooManyRequests::filings(wait)
            })
    }
}

/// 429: too many requests; try again after this long.
#[derive(Debug, Clone, Copy)]
pub struct TooManyRequests(pub Duration, pub &'static str);

impl TooManyRequests {
    /// Too many look-ups.
    pub fn lookups(wait: Duration) -> TooManyRequests {
        TooManyRequests(wait, "consultas demais deste endereço")
    }

    /// Too many filings.
    pub fn filings(wait: Duration) -> TooManyRequests {
        TooManyRequests(wait, "envios demais deste endereço")
    }
}

impl IntoResponse for TooManyRequests {
    fn into_response(self) -> Response {
        // Whole seconds, never 0: "now" would only be refused again.
        let seconds = self.0.as_secs() + u64::from(self.0.subsec_nanos() > 0);
        let seconds = seconds.max(1);
        let mut response = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{}: tente de novo em {seconds} s", self.1),
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        response
    }
}
