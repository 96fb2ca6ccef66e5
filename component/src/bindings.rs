//! The WIT resources mapped onto the host layer, one call each. Only here: the glue that
//! wit-bindgen generates lifts and lowers values in linear memory with `unsafe` code.
#![allow(unsafe_code)] // wit-bindgen's generated glue; nothing hand-written here is unsafe.

use std::cell::RefCell;

use ::compactor::engine::{SummaryFailure as CoreFailure, Trigger as CoreTrigger};

use crate::{Code, Config, Driven, Failure, Finished, Host, Next, ReadOptions, Request, Session};

wit_bindgen::generate!({
    world: "compactor",
    path: "wit",
});

use exports::compactor::engine::engine::{
    Compactor as CompactorHandle, Guest, GuestCompactor, GuestRun, GuestSession, Run as RunHandle,
    Session as SessionHandle,
};
use exports::compactor::engine::types::{
    Config as WitConfig, Error, ErrorCode, Outcome, Polled, ReadOptions as WitReadOptions, Step,
    SummaryFailure, SummaryRequest, Trigger,
};

struct Component;

export!(Component);

impl From<Failure> for Error {
    fn from(failure: Failure) -> Self {
        Error {
            code: match failure.code {
                Code::InvalidInput => ErrorCode::InvalidInput,
                Code::ContextOverflow => ErrorCode::ContextOverflow,
                Code::CircuitOpen => ErrorCode::CircuitOpen,
                Code::Conflict => ErrorCode::Conflict,
                Code::Aborted => ErrorCode::Aborted,
                Code::SummaryFailed => ErrorCode::SummaryFailed,
                // INTERNAL, and PERSIST_FAILED, which no call of the world raises (no
                // session store crosses it), and codes the core adds later.
                _ => ErrorCode::Internal,
            },
            details: failure.details_json(),
            message: failure.message,
            path: failure.path,
        }
    }
}

fn read(options: WitReadOptions) -> ReadOptions {
    ReadOptions {
        format: options.format,
        lenient: options.lenient,
    }
}

fn trigger(trigger: Trigger) -> CoreTrigger {
    match trigger {
        Trigger::Proactive => CoreTrigger::Proactive,
        Trigger::Reactive => CoreTrigger::Reactive,
        Trigger::Manual => CoreTrigger::Manual,
    }
}

/// Every field of the WIT record by its name in the engine's options table: the record is
/// destructured whole, so a field the world gains and this list lacks does not compile, and
/// `Config::to_core` refuses a name the table does not have.
macro_rules! config {
    ($record:expr; $($field:ident),* $(,)?) => {{
        let WitConfig { $($field),* } = $record;
        Config::default()$(.with(stringify!($field), $field))*
    }};
}

impl From<WitConfig> for Config {
    fn from(record: WitConfig) -> Self {
        config!(record;
            model,
            max_context_tokens,
            output_reserve,
            comfort_tokens,
            trigger_ratio,
            target_ratio,
            max_messages,
            keep_recent_turns,
            tail_tokens,
            keep_tool_results,
            encoding,
            min_tail_turns,
            max_summary_tokens,
            summary_model,
            summary_provider,
            enable_incremental,
            max_failures,
            breaker_cooldown_ms,
            min_messages,
            clear_at_least,
            max_preserved_user_tokens,
            summarizer_input_tokens,
            request_timeout_ms,
            max_attempts,
            min_reduction,
            max_concurrency,
            cache_capacity,
            session_capacity,
            extractive_fallback,
            summarize_outputs,
            instructions,
            cached_price,
            cache_write_price,
            output_price,
        )
    }
}

impl Guest for Component {
    type Compactor = Host;
    type Run = RefCell<Driven>;
    type Session = Session;

    fn detect_format(messages: String) -> Option<String> {
        crate::detect_format(&messages)
    }

    fn count_tokens(text: String, encoding: Option<String>) -> Result<u64, Error> {
        Ok(crate::count_tokens(&text, encoding.as_deref())?)
    }

    fn count_tokens_each(texts: Vec<String>, encoding: Option<String>) -> Result<Vec<u64>, Error> {
        Ok(crate::count_tokens_each(&texts, encoding.as_deref())?)
    }
}

impl GuestCompactor for Host {
    fn create(config: WitConfig) -> Result<CompactorHandle, Error> {
        Ok(CompactorHandle::new(Host::new(&config.into())?))
    }

    fn budget(&self) -> String {
        Host::budget(self).unwrap_or_default()
    }

    fn counter(&self) -> String {
        Host::counter(self)
    }

    fn assess(&self, messages: String, options: WitReadOptions) -> Result<String, Error> {
        Ok(Host::assess(self, &messages, &read(options))?)
    }

    fn plan(&self, messages: String, options: WitReadOptions) -> Result<String, Error> {
        Ok(Host::plan(self, &messages, &read(options))?)
    }

    fn count_tokens(&self, text: String, encoding: Option<String>) -> Result<u64, Error> {
        Ok(Host::count_tokens(self, &text, encoding.as_deref())?)
    }

    fn begin(
        &self,
        messages: String,
        options: WitReadOptions,
        session_id: String,
        trigger: Trigger,
        now_ms: u64,
    ) -> Result<RunHandle, Error> {
        let driven = Host::begin(
            self,
            &messages,
            &read(options),
            &session_id,
            self::trigger(trigger),
            now_ms,
        )?;
        Ok(RunHandle::new(RefCell::new(driven)))
    }

    fn session(
        &self,
        id: String,
        messages: String,
        options: WitReadOptions,
    ) -> Result<SessionHandle, Error> {
        Ok(SessionHandle::new(Host::session(
            self,
            &id,
            &messages,
            &read(options),
        )?))
    }

    fn reset_circuit(&self, session_id: String) {
        Host::reset_circuit(self, &session_id);
    }

    fn export_state(&self) -> String {
        Host::export_state(self).unwrap_or_default()
    }

    fn import_state(&self, state: String) -> Result<(), Error> {
        Ok(Host::import_state(self, &state)?)
    }
}

fn request(r: Request) -> SummaryRequest {
    SummaryRequest {
        id: r.id,
        max_output_tokens: r.max_output_tokens,
        json: r.json,
    }
}

fn outcome(f: Finished) -> Outcome {
    Outcome {
        status: f.status,
        status_json: f.status_json,
        report: f.report,
        messages: f.messages,
        changes: f.changes,
    }
}

impl GuestRun for RefCell<Driven> {
    fn poll(&self) -> Polled {
        let polled = self.borrow_mut().poll();
        let step = match polled.next {
            Next::Summarize(requests) => {
                Step::Summarize(requests.into_iter().map(request).collect())
            }
            Next::Wait(until_ms) => Step::Wait(until_ms),
            Next::Done(finished) => Step::Done(outcome(finished)),
            Next::Failed(failure) => Step::Failed(failure.into()),
        };
        Polled {
            events: polled.events,
            step,
        }
    }

    fn complete(
        &self,
        id: u64,
        answer: Result<String, SummaryFailure>,
        now_ms: u64,
    ) -> Result<(), Error> {
        let answer = answer.map_err(|failure| match failure {
            SummaryFailure::InputTooLong => CoreFailure::InputTooLong,
            SummaryFailure::Failed(message) => CoreFailure::failed(message),
        });
        Ok(self.borrow_mut().complete(id, answer, now_ms)?)
    }

    fn handle_timeout(&self, now_ms: u64) {
        self.borrow_mut().handle_timeout(now_ms);
    }

    fn cancel(&self) {
        self.borrow_mut().cancel();
    }

    fn offline_summary(&self, id: u64) -> Result<String, Error> {
        Ok(self.borrow().offline_summary(id)?)
    }
}

impl GuestSession for Session {
    fn append(&self, messages: String) -> Result<(), Error> {
        Ok(Session::append(self, &messages)?)
    }

    fn assess(&self) -> String {
        Session::assess(self).unwrap_or_default()
    }

    fn plan(&self) -> Result<String, Error> {
        Ok(Session::plan(self)?)
    }

    fn compact_begin(&self, trigger: Trigger, now_ms: u64) -> Result<RunHandle, Error> {
        let driven = Session::compact_begin(self, self::trigger(trigger), now_ms)?;
        Ok(RunHandle::new(RefCell::new(driven)))
    }

    fn messages(&self) -> String {
        Session::messages(self)
    }

    fn changes(&self) -> Option<String> {
        Session::changes(self).ok().flatten()
    }

    fn length(&self) -> u32 {
        u32::try_from(Session::len(self)).unwrap_or(u32::MAX)
    }
}
