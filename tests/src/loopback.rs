//! A real HTTP endpoint on 127.0.0.1 for the clients under test (the OpenAI-compatible
//! summarizer of the command line): each connection carries one request and is answered
//! on a thread of its own, so concurrent clients are served concurrently.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// An answer: HTTP status, JSON body, and how long to wait before sending it.
pub type Answer = (u16, String, Duration);

/// A running endpoint. It serves until the test process ends.
pub struct Loopback {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    state: Arc<State>,
}

#[derive(Default)]
struct State {
    /// The request bodies, in the order they arrived.
    bodies: Mutex<Vec<String>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
}

impl Loopback {
    /// Answers the `n`th request (from 0) with `answer(n, body)`.
    pub fn serve(answer: impl Fn(usize, &str) -> Answer + Send + Sync + 'static) -> Loopback {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let state = Arc::new(State::default());
        let answer = Arc::new(answer);
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let (state, answer) = (Arc::clone(&shared), Arc::clone(&answer));
                std::thread::spawn(move || {
                    let now = state.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    state.max_in_flight.fetch_max(now, Ordering::SeqCst);
                    let mut reader = BufReader::new(stream);
                    let body = read_request(&mut reader);
                    let n = {
                        let mut bodies =
                            state.bodies.lock().unwrap_or_else(PoisonError::into_inner);
                        bodies.push(body.clone());
                        bodies.len() - 1
                    };
                    let (status, text, delay) = answer(n, &body);
                    std::thread::sleep(delay);
                    let _ = write!(
                        reader.into_inner(),
                        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\n\
                         Content-Length: {}\r\nConnection: close\r\n\r\n{text}",
                        text.len()
                    );
                    state.in_flight.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        Loopback { url, state }
    }

    /// The request bodies received so far, in arrival order.
    pub fn bodies(&self) -> Vec<String> {
        self.state
            .bodies
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The most requests that were being answered at the same time.
    pub fn max_in_flight(&self) -> usize {
        self.state.max_in_flight.load(Ordering::SeqCst)
    }
}

/// Reads one request's head and returns its body (by `Content-Length`).
fn read_request(reader: &mut impl BufRead) -> String {
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    String::from_utf8_lossy(&body).into_owned()
}

/// A chat completions answer whose message is `content`.
pub fn completion(content: &str) -> String {
    serde_json::json!({ "choices": [{ "message": { "role": "assistant", "content": content } }] })
        .to_string()
}
