//! Password hashing behind a bounded queue.
//!
//! Argon2id is slow and takes 19 MiB of memory per hash on purpose, so at
//! most [`HashingLimits::workers`] hashes or verifications run at once (on
//! as many threads of their own, off the async workers: the same threads
//! every time, so the allocator keeps one 19 MiB block per thread instead of
//! one per blocking thread that ever hashed) and at most
//! [`HashingLimits::waiting`] more wait for a turn. Past that the caller is
//! refused at once with [`StoreError::Busy`]: under a storm of sign-ins
//! memory stays flat and the answer is quick.

use crate::StoreError;
use crate::users::system;
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, mpsc};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How many password hashes may run at once, and how many may wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashingLimits {
    /// Hashes running at once (at least 1).
    pub workers: usize,
    /// Hashes waiting for a worker; one more is refused (`Busy`).
    pub waiting: usize,
}

impl HashingLimits {
    /// One worker per core of the machine and 16 waiting per worker,
    /// unless `OUTORGA_HASH_WORKERS` or `OUTORGA_HASH_QUEUE` say otherwise.
    pub fn from_env() -> Result<HashingLimits, StoreError> {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let workers = setting("OUTORGA_HASH_WORKERS", 1)?.unwrap_or(cores);
        let waiting = setting("OUTORGA_HASH_QUEUE", 0)?.unwrap_or(16 * workers);
        Ok(HashingLimits { workers, waiting })
    }
}

/// A whole number of at least `least` from the environment variable `name`.
fn setting(name: &'static str, least: usize) -> Result<Option<usize>, StoreError> {
    let Ok(text) = std::env::var(name) else {
        return Ok(None);
    };
    match text.trim().parse::<usize>() {
        Ok(n) if n >= least && n <= Semaphore::MAX_PERMITS / 2 => Ok(Some(n)),
        _ => Err(StoreError::Invalid {
            field: name,
            reason: format!("`{text}` não serve: informe um número inteiro a partir de {least}"),
        }),
    }
}

/// The most hashes that were running at once, and the most that were
/// admitted at once (running or waiting), since the store was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HashingPeak {
    pub running: usize,
    pub admitted: usize,
}

/// A count and the highest it reached.
#[derive(Debug, Default)]
struct Gauge {
    now: AtomicUsize,
    peak: AtomicUsize,
}

impl Gauge {
    fn enter(&self) {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.peak.fetch_max(now, Ordering::SeqCst);
    }

    fn leave(&self) {
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A hash to run on one of the queue's threads.
type Job = Box<dyn FnOnce() + Send>;

/// The queue: admission (workers + waiting places), the workers, and their
/// threads (which end when the queue is dropped).
#[derive(Debug)]
pub(crate) struct Hashing {
    places: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    admitted: Gauge,
    running: Gauge,
    jobs: mpsc::Sender<Job>,
}

impl Hashing {
    pub(crate) fn new(limits: HashingLimits) -> Arc<Hashing> {
        let workers = limits.workers.max(1);
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for n in 0..workers {
            let queue = queue.clone();
            // A thread that cannot start leaves the others; with none, a
            // hash is refused (`run`).
            let _ = std::thread::Builder::new()
                .name(format!("outorga-senhas-{n}"))
                .spawn(move || {
                    loop {
                        let job = match queue.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => return,
                        };
                        match job {
                            // A panic in one hash fails that caller alone.
                            Ok(job) => drop(std::panic::catch_unwind(AssertUnwindSafe(job))),
                            Err(_) => return,
                        }
                    }
                });
        }
        Arc::new(Hashing {
            places: Arc::new(Semaphore::new(workers + limits.waiting)),
            workers: Arc::new(Semaphore::new(workers)),
            admitted: Gauge::default(),
            running: Gauge::default(),
            jobs,
        })
    }

    pub(crate) fn peak(&self) -> HashingPeak {
        HashingPeak {
            running: self.running.peak.load(Ordering::SeqCst),
            admitted: self.admitted.peak.load(Ordering::SeqCst),
        }
    }

    /// A place in the queue, or `Busy` at once when every place is taken.
    pub(crate) fn admit(self: &Arc<Self>) -> Result<Ticket, StoreError> {
        let place = self
            .places
            .clone()
            .try_acquire_owned()
            .map_err(|_| StoreError::Busy)?;
        self.admitted.enter();
        Ok(Ticket {
            hashing: self.clone(),
            _place: place,
        })
    }
}

/// A place in the queue, given back when dropped.
#[derive(Debug)]
pub(crate) struct Ticket {
    hashing: Arc<Hashing>,
    _place: OwnedSemaphorePermit,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.hashing.admitted.leave();
    }
}

/// A worker busy with one hash, freed when dropped (even by a panic).
struct Running(Arc<Hashing>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.running.leave();
    }
}

/// A valid hash of no one's password: verifying against it when the user
/// does not exist takes as long as for a real user, so the answer's timing
/// does not tell which names exist.
static DECOY: LazyLock<Option<String>> = LazyLock::new(|| {
    Argon2::default()
        .hash_password(b"ninguem-tem-esta-senha")
        .ok()
        .map(|hash| hash.to_string())
});

impl Ticket {
    /// Waits for a worker and runs `work` on one of the queue's threads.
    /// The place and the worker are held until `work` ends, even if the
    /// caller stops waiting, so no more than `workers` ever run.
    async fn run<T: Send + 'static>(
        self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, StoreError> {
        let worker = self
            .hashing
            .workers
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| system("a fila de senhas foi fechada"))?;
        let jobs = self.hashing.jobs.clone();
        let (done, answer) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let hashing = self.hashing.clone();
            // Dropped last (locals drop in reverse): the worker is given
            // back only after the count of running hashes went down.
            let _held = (self, worker);
            hashing.running.enter();
            let _running = Running(hashing);
            // The caller may have stopped waiting: nothing to tell then.
            let _ = done.send(work());
        });
        jobs.send(job)
            .map_err(|_| system("não há quem calcule a senha"))?;
        answer
            .await
            .map_err(|_| system("o cálculo da senha foi interrompido"))
    }

    /// The Argon2id PHC string of `password`.
    pub(crate) async fn hash(self, password: String) -> Result<String, StoreError> {
        self.run(move || {
            Argon2::default()
                .hash_password(password.as_bytes())
                .map(|hash| hash.to_string())
        })
        .await?
        .map_err(|_| system("não foi possível cifrar a senha"))
    }

    /// Whether `password` matches `phc`; with no `phc` (no such user) a
    /// decoy is verified, so the answer takes as long, and is `false`.
    pub(crate) async fn verify(
        self,
        password: String,
        phc: Option<String>,
    ) -> Result<bool, StoreError> {
        self.run(move || {
            let (phc, real) = match phc {
                Some(phc) => (Some(phc), true),
                None => (DECOY.clone(), false),
            };
            let matches = phc
                .as_deref()
                .and_then(|phc| PasswordHash::new(phc).ok())
                .is_some_and(|hash| {
                    Argon2::default()
                        .verify_password(password.as_bytes(), &hash)
                        .is_ok()
                });
            real && matches
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::{Hashing, HashingLimits, HashingPeak};
    use crate::StoreError;

    /// Two workers, one waiting place: the fourth caller is refused at
    /// once while three are in; a place freed admits the next.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn at_most_workers_run_and_waiting_wait() {
        let hashing = Hashing::new(HashingLimits {
            workers: 2,
            waiting: 1,
        });
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let gate = std::sync::Arc::new(std::sync::Mutex::new(gate));
        let (started, mut running) = tokio::sync::mpsc::unbounded_channel::<()>();
        let mut jobs = Vec::new();
        for _ in 0..3 {
            let ticket = hashing.admit().expect("a place");
            let (gate, started) = (gate.clone(), started.clone());
            jobs.push(tokio::spawn(ticket.run(move || {
                let _ = started.send(());
                let gate = gate.lock().unwrap_or_else(|p| p.into_inner());
                let _ = gate.recv();
            })));
        }
        // Two run; the third waits for a worker.
        running.recv().await.expect("first runs");
        running.recv().await.expect("second runs");
        assert!(matches!(hashing.admit(), Err(StoreError::Busy)));
        for _ in 0..3 {
            release.send(()).expect("release");
        }
        running.recv().await.expect("third runs");
        for job in jobs {
            job.await.expect("joined").expect("ran");
        }
        assert_eq!(
            hashing.peak(),
            HashingPeak {
                running: 2,
                admitted: 3
            }
        );
        assert!(hashing.admit().is_ok());
    }
}
