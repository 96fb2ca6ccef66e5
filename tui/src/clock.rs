//! The system clock for the engine's async driver: milliseconds since the Unix epoch, and
//! a sleep that a timer thread ends.

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Poll, Waker};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use compactor::driver::Clock;

/// Wall-clock time; the engine's deadlines are read against it.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        now_ms()
    }

    fn sleep_until(&self, deadline_ms: u64) -> impl Future<Output = ()> {
        // Fired, and the waker to call when it fires.
        let state: Arc<Mutex<(bool, Option<Waker>)>> = Arc::default();
        let timer = Arc::clone(&state);
        let wait = Duration::from_millis(deadline_ms.saturating_sub(now_ms()).saturating_add(1));
        std::thread::spawn(move || {
            std::thread::sleep(wait);
            let mut state = timer.lock().unwrap_or_else(PoisonError::into_inner);
            state.0 = true;
            if let Some(waker) = state.1.take() {
                waker.wake();
            }
        });
        std::future::poll_fn(move |cx| {
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            if state.0 {
                Poll::Ready(())
            } else {
                state.1 = Some(cx.waker().clone());
                Poll::Pending
            }
        })
    }
}
