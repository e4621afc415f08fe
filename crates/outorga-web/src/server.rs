//! Serving the API on a TCP listener (hyper's HTTP/1.1 server), within the
//! connection limits of [`Limits`]:
//!
//! - a client has [`Limits::header_read_timeout`] to send a request's
//!   headers, counted from the connection's opening or from the end of the
//!   previous answer, so the same timeout closes idle kept-alive
//!   connections (hyper starts it whenever it waits for a request's head);
//! - at most [`Limits::connections`] connections are open, and at most
//!   [`Limits::connections_per_client`] from one client address (IPv4
//!   address or IPv6 /64; not applied behind a proxy, whose connections all
//!   come from one address). A connection past a cap is answered at once
//!   with 503 and `Retry-After` (best effort, without reading the request)
//!   and closed, so it never holds a slot;
//! - each request carries its client's address as [`ClientIp`] (see
//!   [`Peers`] for where it comes from).
//!
//! The caps are this process's: servers on one database each keep theirs.

use crate::client::{ClientIp, Peers};
use crate::limits::Limits;
use crate::metrics::{Cap, Metrics};
use crate::state::AppState;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt as _;

/// How long to wait before accepting again when accepting failed (out of
/// file descriptors, say): the error would only repeat at once.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// Serves the API, with `pages` beside it, on `listener` until `shutdown`
/// completes, then stops accepting and lets open requests finish (for as
/// long as a request may take).
pub async fn serve(
    listener: TcpListener,
    (state, pages): (AppState, axum::Router<AppState>),
    peers: Peers,
    shutdown: impl Future<Output = ()>,
) {
    let limits = state.limits;
    let router = crate::router_with(state.clone(), pages);
    let slots = Arc::new(Slots::new(&limits, state.metrics.clone()));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                tracing::warn!(%error, "cannot accept a connection");
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        let key = match peers {
            Peers::Clients => Some(ClientIp(peer.ip()).key()),
            Peers::TrustedProxy => None,
        };
        let slot = match slots.take(key) {
            Ok(slot) => slot,
            Err(cap) => {
                state.metrics.connection_refused(cap);
                refuse(&stream, cap);
                continue;
            }
        };
        // Answers are small: send them at once rather than wait to fill a
        // packet.
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            let client = peers.client(peer.ip(), request.headers());
            request.extensions_mut().insert(client);
            router.clone().oneshot(request)
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                // A client that went away or ran out of time.
                tracing::debug!(%error, "connection closed");
            }
            drop(slot);
        });
    }
    drop(listener);
    let grace = limits.request_timeout.max(limits.header_read_timeout);
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("connections still open at shutdown were closed");
    }
}

/// Answers a connection past a cap with 503 and closes it. The answer is
/// written only if the socket takes it at once: a client past the cap is
/// never waited for.
fn refuse(stream: &TcpStream, cap: Cap) {
    let why = match cap {
        Cap::Total => "o servidor está no limite de conexões abertas; tente de novo em instantes",
        Cap::PerClient => {
            "conexões abertas demais a partir deste endereço; feche algumas ou tente de novo \
             em instantes"
        }
    };
    let body = serde_json::json!({ "erro": why }).to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\n\
         Content-Type: application/json\r\n\
         Content-Length: {}\r\n\
         Retry-After: 5\r\n\
         X-Content-Type-Options: nosniff\r\n\
         Cache-Control: no-store\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// The open connections, in all and per client key.
#[derive(Debug)]
struct Slots {
    total: usize,
    per_client: usize,
    open: Mutex<Open>,
    metrics: Arc<Metrics>,
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_client: HashMap<IpAddr, usize>,
}

impl Slots {
    fn new(limits: &Limits, metrics: Arc<Metrics>) -> Slots {
        Slots {
            total: limits.connections,
            per_client: limits.connections_per_client,
            open: Mutex::new(Open::default()),
            metrics,
        }
    }

    /// A slot for a connection from `client` (`None`: not counted per
    /// client), or the cap that refuses it.
    fn take(self: &Arc<Slots>, client: Option<IpAddr>) -> Result<Slot, Cap> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.total >= self.total {
            return Err(Cap::Total);
        }
        if let Some(client) = client {
            if open.per_client.get(&client).copied().unwrap_or(0) >= self.per_client {
                return Err(Cap::PerClient);
            }
            *open.per_client.entry(client).or_default() += 1;
        }
        open.total += 1;
        self.metrics.connection_opened();
        Ok(Slot {
            slots: self.clone(),
            client,
        })
    }
}

/// An open connection's place, given back when it closes.
#[derive(Debug)]
struct Slot {
    slots: Arc<Slots>,
    client: Option<IpAddr>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self
            .slots
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        open.total -= 1;
        if let Some(client) = self.client
            && let Some(count) = open.per_client.get_mut(&client)
        {
            *count -= 1;
            if *count == 0 {
                open.per_client.remove(&client);
            }
        }
        self.slots.metrics.connection_closed();
    }
}
