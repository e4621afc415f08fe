//! What the server counts, for `GET /api/metrics` (the Prometheus text
//! format, through the Prometheus project's own `prometheus-client`).
//! Counts are this process's since it started: several servers on one
//! database each count their own.

use axum::http::Method;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// The upper bounds of the request duration buckets, in seconds.
const DURATION_BUCKETS: [f64; 12] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0,
];

/// A request as it is counted: its method, its route template (never the
/// path, which can hold a CPF) and the status of its answer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    route: String,
    status: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RouteLabels {
    method: &'static str,
    route: String,
}

/// Which connection cap refused a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cap {
    /// The cap on open connections in all.
    Total,
    /// The cap on open connections from one client address.
    PerClient,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, EncodeLabelSet)]
struct CapLabels {
    cap: &'static str,
}

fn duration_histogram() -> Histogram {
    Histogram::new(DURATION_BUCKETS)
}

/// The process's counters, shared by the server and the router.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Family<RouteLabels, Histogram>,
    open_connections: Gauge,
    refused_connections: Family<CapLabels, Counter>,
    rate_limited: Counter,
}

impl Default for Metrics {
    fn default() -> Metrics {
        let requests = Family::<RequestLabels, Counter>::default();
        let durations =
            Family::<RouteLabels, Histogram>::new_with_constructor(duration_histogram as fn() -> _);
        let open_connections = Gauge::default();
        let refused_connections = Family::<CapLabels, Counter>::default();
        let rate_limited = Counter::default();
        let mut registry = Registry::with_prefix("outorga");
        registry.register(
            "http_requests",
            "Requests answered, by method, route template and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's headers to its answer, by method and route template",
            durations.clone(),
        );
        registry.register(
            "connections_open",
            "Connections open now",
            open_connections.clone(),
        );
        registry.register(
            "connections_refused",
            "Connections refused past a cap (total: all connections; per_client: one address)",
            refused_connections.clone(),
        );
        registry.register(
            "public_lookups_rate_limited",
            "Public look-ups refused (429) past a client's rate",
            rate_limited.clone(),
        );
        Metrics {
            registry,
            requests,
            durations,
            open_connections,
            refused_connections,
            rate_limited,
        }
    }
}

impl Metrics {
    /// Counts an answered request.
    pub(crate) fn request(&self, method: &Method, route: &str, status: u16, took: Duration) {
        let method = method_label(method);
        self.requests
            .get_or_create(&RequestLabels {
                method,
                route: route.to_string(),
                status,
            })
            .inc();
        self.durations
            .get_or_create(&RouteLabels {
                method,
                route: route.to_string(),
            })
            .observe(took.as_secs_f64());
    }

    pub(crate) fn connection_opened(&self) {
        self.open_connections.inc();
    }

    pub(crate) fn connection_closed(&self) {
        self.open_connections.dec();
    }

    pub(crate) fn connection_refused(&self, cap: Cap) {
        let cap = match cap {
            Cap::Total => "total",
            Cap::PerClient => "per_client",
        };
        self.refused_connections
            .get_or_create(&CapLabels { cap })
            .inc();
    }

    pub(crate) fn rate_limited(&self) {
        self.rate_limited.inc();
    }

    /// Everything counted, in the Prometheus text format (version 0.0.4).
    pub(crate) fn encode(&self) -> Result<String, std::fmt::Error> {
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

/// A method as a label: the standard ones by name, any other (a client can
/// send any token) as `OTHER`, so clients cannot grow the label set.
fn method_label(method: &Method) -> &'static str {
    const STANDARD: [&str; 9] = [
        "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE", "CONNECT",
    ];
    STANDARD
        .into_iter()
        .find(|known| *known == method.as_str())
        .unwrap_or("OTHER")
}
