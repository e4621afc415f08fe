//! Who is on the other end of the connection: the client's address, for
//! the limits that count per client (sign-in attempts, public look-ups).

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// The client's address. The server puts it in each request's extensions
/// (the peer's address, or the one a trusted proxy forwarded); without it,
/// the connection's peer address (`ConnectInfo`), and with neither (a
/// request made in-process, as the tests do) the unspecified address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The address of a request's parts.
    pub fn of(parts: &Parts) -> ClientIp {
        if let Some(ip) = parts.extensions.get::<ClientIp>() {
            return *ip;
        }
        if let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() {
            return ClientIp(peer.ip());
        }
        ClientIp(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(ClientIp::of(parts))
    }
}
