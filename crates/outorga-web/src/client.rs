//! Who is on the other end of the connection: the client's address, for
//! the limits that count per client (sign-in attempts, public look-ups,
//! open connections).

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap};
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The client's address. The server ([`crate::server`]) puts it in each
/// request's extensions (the peer's address, or the one a trusted proxy
/// forwarded: see [`Peers`]); without it, the connection's peer address
/// (`ConnectInfo`), and with neither (a request made in-process, as the
/// tests do) the unspecified address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The address of a request's parts.
    pub fn of(parts: &Parts) -> ClientIp {
        ClientIp::in_extensions(&parts.extensions)
    }

    /// The address recorded in a request's extensions.
    pub fn in_extensions(extensions: &Extensions) -> ClientIp {
        if let Some(ip) = extensions.get::<ClientIp>() {
            return *ip;
        }
        if let Some(ConnectInfo(peer)) = extensions.get::<ConnectInfo<SocketAddr>>() {
            return ClientIp(peer.ip().to_canonical());
        }
        ClientIp(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    /// What per-client limits count by: the IPv4 address, or the IPv6
    /// address's /64 network (one subscriber line is given a whole /64, so
    /// counting single IPv6 addresses would let one client be thousands).
    pub fn key(self) -> IpAddr {
        match self.0.to_canonical() {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(network))
            }
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(ClientIp::of(parts))
    }
}

/// Whom the server's peers are, and so where a request's client address
/// comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Peers {
    /// The clients themselves: the client is the connection's peer and
    /// `X-Forwarded-For` is ignored, because any client can write it.
    #[default]
    Clients,
    /// A reverse proxy the operator runs in front of the server (and
    /// through which alone the server is reached): the client is the
    /// rightmost address of `X-Forwarded-For`, the one the proxy itself
    /// appended (those to its left were written by the client and prove
    /// nothing). Without the header, the peer.
    TrustedProxy,
}

impl Peers {
    /// The client of a request that came from `peer` with `headers`.
    pub fn client(self, peer: IpAddr, headers: &HeaderMap) -> ClientIp {
        let forwarded = match self {
            Peers::Clients => None,
            Peers::TrustedProxy => rightmost_forwarded(headers),
        };
        ClientIp(forwarded.unwrap_or(peer).to_canonical())
    }
}

/// The last address of the last `X-Forwarded-For` header (an address, or
/// an address with a port), if it is one.
fn rightmost_forwarded(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let entry = last.to_str().ok()?.rsplit(',').next()?.trim();
    entry
        .parse::<IpAddr>()
        .or_else(|_| entry.parse::<SocketAddr>().map(|s| s.ip()))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in values {
            map.append(
                "x-forwarded-for",
                HeaderValue::from_str(value).expect("header"),
            );
        }
        map
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("address")
    }

    #[test]
    fn the_forwarded_header_counts_only_behind_a_trusted_proxy() {
        let peer = ip("10.0.0.1");
        let forged = headers(&["1.1.1.1"]);
        assert_eq!(Peers::Clients.client(peer, &forged), ClientIp(peer));
        assert_eq!(
            Peers::TrustedProxy.client(peer, &forged),
            ClientIp(ip("1.1.1.1"))
        );
    }

    #[test]
    fn behind_a_proxy_the_rightmost_entry_is_the_client() {
        let peer = ip("10.0.0.1");
        let client = |values: &[&str]| Peers::TrustedProxy.client(peer, &headers(values)).0;
        assert_eq!(client(&["6.6.6.6, 203.0.113.9"]), ip("203.0.113.9"));
        assert_eq!(client(&["6.6.6.6", "203.0.113.9"]), ip("203.0.113.9"));
        assert_eq!(client(&["[2001:db8::1]:443"]), ip("2001:db8::1"));
        assert_eq!(client(&["203.0.113.9:5000"]), ip("203.0.113.9"));
        // Nothing usable: the proxy's own address.
        assert_eq!(client(&["6.6.6.6, unknown"]), peer);
        assert_eq!(client(&[]), peer);
    }

    #[test]
    fn limits_count_ipv4_addresses_and_ipv6_networks() {
        assert_eq!(ClientIp(ip("203.0.113.9")).key(), ip("203.0.113.9"));
        assert_eq!(ClientIp(ip("::ffff:203.0.113.9")).key(), ip("203.0.113.9"));
        assert_eq!(
            ClientIp(ip("2001:db8:1:2:aaaa::1")).key(),
            ClientIp(ip("2001:db8:1:2:bbbb::2")).key()
        );
        assert_ne!(
            ClientIp(ip("2001:db8:1:2::1")).key(),
            ClientIp(ip("2001:db8:1:3::1")).key()
        );
    }
}
