//! Every list answers a page at a time, in one shape:
//! `{ "itens": [...], "proximo": "<cursor>" | null }`. The client asks for
//! `limite` items (50 when omitted, at most 200) and, for the next page,
//! sends back `proximo` as `cursor`. The cursor is opaque: the store's key of
//! the last item (keyset pagination), as base64url JSON.

use crate::error::ApiError;
use axum::http::StatusCode;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use outorga_store::{Cursor, Page, Window};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// Items per page when the client does not say.
pub const DEFAULT_LIMIT: u32 = 50;
/// The most items a page holds.
pub const MAX_LIMIT: u32 = 200;

/// The page asked for (query parameters of every list).
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Pagina {
    /// Quantos itens por página: 50 quando omitido, de 1 a 200.
    #[param(minimum = 1, maximum = 200, default = 50)]
    pub limite: Option<u32>,
    /// O `proximo` da página anterior, tal como veio; omita para a primeira.
    pub cursor: Option<String>,
}

/// A page asked for, checked.
#[derive(Debug)]
pub struct Asked {
    limit: u32,
    after: Option<Cursor>,
}

impl Asked {
    /// The store's window of this page.
    pub fn window(&self) -> Window<'_> {
        Window {
            limit: self.limit,
            after: self.after.as_ref(),
        }
    }
}

impl Pagina {
    /// The limit within bounds and the cursor read back; a refusal (422)
    /// names `limite` or `cursor`.
    pub fn asked(&self) -> Result<Asked, ApiError> {
        let limit = self.limite.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "limite",
                format!("`{limit}` está fora do intervalo aceito: peça de 1 a {MAX_LIMIT} itens"),
            ));
        }
        let after = match self.cursor.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(text) => Some(decode(text).ok_or_else(|| {
                ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "cursor",
                    "o cursor não pôde ser lido: envie o `proximo` de uma página desta lista, \
                     sem alterá-lo, ou omita-o para a primeira página",
                )
            })?),
        };
        Ok(Asked { limit, after })
    }
}

fn decode(text: &str) -> Option<Cursor> {
    let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn encode(cursor: &Cursor) -> String {
    // A cursor is plain data: serializing it cannot fail.
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(cursor).unwrap_or_default())
}

/// One page of a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct Lista<T> {
    /// Os itens desta página, na ordem da lista.
    pub itens: Vec<T>,
    /// O cursor da página seguinte (envie-o como `cursor`); `null` na última.
    pub proximo: Option<String>,
}

impl<T> Lista<T> {
    /// The store's page, each item in its wire form.
    pub fn of<S>(page: Page<S>) -> Lista<T>
    where
        T: From<S>,
    {
        Lista::with(page, T::from)
    }

    /// The store's page, each item converted by `wire`.
    pub fn with<S>(page: Page<S>, wire: impl FnMut(S) -> T) -> Lista<T> {
        Lista {
            proximo: page.next.as_ref().map(encode),
            itens: page.items.into_iter().map(wire).collect(),
        }
    }
}
