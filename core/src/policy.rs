//! The session's default policy: how deep to cut, and when a cut is not worth making,
//! from what a [`Session`](crate::live::Session) observes and what tokens cost.
//!
//! # The derivation
//!
//! Prices are per token, relative to uncached input: `c` for a cached prompt token, `w`
//! for a token written past the cached prefix, 1 for summarizer input, `o` for summary
//! output. A session grows by `g` tokens per call (the mean of its appends, each counted
//! up to a fifth of the configured target: [`CALL_GROWTH_SHARE`]). Its stable
//! prefix of `P` tokens (system messages, the task) is never rewritten. A compaction at
//! `N` tokens down to `t` starts a cycle that lasts `n = (T − t) / g` calls until the
//! trigger `T` fires again. Over a cycle, per call:
//!
//! ```text
//! cost(t) = c·(T + t)/2             the prompt, read from the cache
//!         + w·g                     each call's new tokens, written
//!         + [(w − c)·(t − P)        the rewrite: from the first changed message on,
//!            + (T − t) + o·s] / n   the prompt is billed again; the summarizer reads
//!                                   what is folded (at most: a running summary reads
//!                                   tool outputs as placeholders) and writes s tokens
//!         = c·(T + t)/2 + (w + 1)·g + g·[(w − c)·(t − P) + o·s] / (T − t)
//! ```
//!
//! (A summarizer that sends its request as a continuation of the conversation
//! ([`Continuation`](crate::summary::Continuation)) reads what is folded from the cache
//! instead: the summarizer's input term is then an upper bound.)
//!
//! Both terms that depend on `t` grow with it: **the deeper the cut, the cheaper the
//! run** — shallow cuts pay the rewrite and the summary often, for small prompts saved.
//! So the policy cuts to the floor of what must stay: the stable prefix, room for the
//! summaries and their trails ([`SUMMARY_SHARE`] of the target, within
//! `max_summary_tokens`), and the raw tail of the newest
//! `keep_recent_turns` calls (`keep_recent_turns · g`); never deeper than that, never
//! shallower than the configured target.
//!
//! A cut saves `c·(N − t)` on each following call and costs
//! `K = (w − c)·(t − P) + (N − t) + o·s` once. It pays for itself within its cycle
//! only when `c·(N − t)·n ≥ K` with `n = (A − t) / g` calls until the absolute limit `A`
//! would force the next one. When it does not (a small window, fast growth, expensive
//! summaries), the trigger waits for the absolute limit: the session compacts only when
//! the prompt would not fit otherwise.
//!
//! Once a session has been compacted, it has outgrown its window and will again: its
//! later cuts come where they cost least per call ([`cheapest_trigger`]), not at the
//! configured trigger, when that is earlier. The first cut waits for the trigger: a run
//! that never gets there is never compacted.
//!
//! # How its summaries are sized
//!
//! A cut under the policy sizes its summaries for cost ([`Sizing::THRIFT`]): the
//! summarizer's answer is the dearest token of a run (output price, then read on every
//! call of the cycle and written again at the next cut), the trail costs no output
//! and carries facts densely. So the summarizer is asked for a fifth of a summary's room
//! when the facts to carry would fill the rest, and reads each message at most at the size
//! of its answer (the trail takes the facts from the messages whole); and MODERATE plans
//! its summaries at their whole allowance (a trail with facts to spare fills it): a
//! MODERATE that would come back over the target is skipped for AGGRESSIVE, instead of
//! handing it summaries paid for twice. Every other run — an explicit target, a stateless
//! call, a session that has not seen a call's growth yet — sizes for its target's band
//! ([`Sizing::BAND`]).
//!
//! The policy applies to a session whose configuration leaves `target_ratio` unset,
//! once it has seen one append; an explicit target is the caller's, and is kept.

/// The share of the configured target one call's growth counts for, at most. The growth
/// rate sets the raw tail a cut keeps (`keep_turns` calls of it) and how many calls a
/// cycle lasts: one oversized output (a file or a listing dumped whole) would raise the
/// mean for the rest of the session, and make every later cut shallower and every cycle
/// shorter. Measured by replay (24,000-token window, the 8 longest of 50 trajectories
/// outside the repository): uncounted, 0.70 of keeping everything's cost with 0.71 of the
/// facts seen; a fifth, 0.65 with 0.71.
pub const CALL_GROWTH_SHARE: f64 = 0.2;

/// What an append of `added` tokens counts for in the growth rate, under a configured
/// target of `target` tokens ([`CALL_GROWTH_SHARE`]).
pub fn call_growth(added: u64, target: u64) -> u64 {
    added.min((target as f64 * CALL_GROWTH_SHARE) as u64)
}

/// The share of the configured target a cut under the policy leaves its summaries (their
/// trails included). Measured by replay (24,000-token window, the 8 longest of 50
/// trajectories outside the repository, before inputs were clipped): a quarter, 0.630 of
/// keeping everything's cost with 0.772 of the facts seen; a fifth, 0.608 with 0.734; a
/// seventh, 0.603 with 0.711.
pub const SUMMARY_SHARE: f64 = 0.2;

/// How a run sizes its summaries: what it asks of the summarizer, and what it expects
/// back when it plans.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sizing {
    /// The share of a summary's room held back from the summarizer's request for the fact
    /// trail, at most (when the summary's facts need that much).
    pub trail_share: f64,
    /// MODERATE plans its summaries at their whole allowance, not at the running estimate
    /// of what summaries come back at.
    pub full_summaries: bool,
    /// The summarizer reads a message longer than the answer it is asked for clipped
    /// (middle-out) to that size: the answer's prose cannot say more of it, and the fact
    /// trail takes the facts from the message whole.
    pub clip_inputs: bool,
}

impl Sizing {
    /// A run that is not a cut under the policy: land in its target's band. Half the room for the trail
    /// keeps an answer that quotes many of its facts from leaving the summary, and the
    /// run, short of the target; MODERATE is tried at the expected size of its summaries
    /// (it keeps user messages and earlier summaries as they are).
    pub const BAND: Self = Self {
        trail_share: 0.5,
        full_summaries: false,
        clip_inputs: false,
    };

    /// A cut under the policy: cost first ([module docs](self)). Measured by replay (as
    /// [`SUMMARY_SHARE`], with a quarter of the target for summaries): [`Sizing::BAND`]
    /// 0.675 / 0.759, with full summaries 0.650 / 0.748, and a trail share of 0.8 too
    /// 0.630 / 0.772; then with a fifth, 0.608 / 0.734, and clipped inputs 0.597 / 0.735.
    pub const THRIFT: Self = Self {
        trail_share: 0.8,
        full_summaries: true,
        clip_inputs: true,
    };
}

impl Default for Sizing {
    fn default() -> Self {
        Self::BAND
    }
}

/// Prices per token, relative to an uncached input token; summarizer input is billed as
/// uncached input.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, rename_all = "camelCase")
)]
pub struct Prices {
    /// A prompt token read from the provider's cache (0.1).
    pub cached: f64,
    /// A prompt token past the cached prefix, written to the cache, in place of the
    /// uncached price (1.0: no surcharge, as OpenAI and Gemini bill; Anthropic's
    /// five-minute cache is 1.25).
    pub cache_write: f64,
    /// A summary token the summarizer returns (4.0).
    pub output: f64,
}

impl Default for Prices {
    fn default() -> Self {
        Self {
            cached: 0.1,
            cache_write: 1.0,
            output: 4.0,
        }
    }
}

/// Prices as providers bill them, by name: cache reads at a tenth of an uncached input
/// token everywhere; a cache write at the uncached price (`default`), 1.25× (`openai` —
/// its newest models — and `anthropic`, the five-minute cache) or 2× (`anthropic-1h`);
/// summary output at 4× in all (override it for the summarizer's model).
pub const PRICE_PRESETS: [(&str, Prices); 4] = [
    (
        "default",
        Prices {
            cached: 0.1,
            cache_write: 1.0,
            output: 4.0,
        },
    ),
    (
        "openai",
        Prices {
            cached: 0.1,
            cache_write: 1.25,
            output: 4.0,
        },
    ),
    (
        "anthropic",
        Prices {
            cached: 0.1,
            cache_write: 1.25,
            output: 4.0,
        },
    ),
    (
        "anthropic-1h",
        Prices {
            cached: 0.1,
            cache_write: 2.0,
            output: 4.0,
        },
    ),
];

impl Prices {
    /// The prices of a preset of [`PRICE_PRESETS`], by name.
    pub fn preset(name: &str) -> Option<Prices> {
        PRICE_PRESETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, prices)| *prices)
    }

    /// Are the prices usable: finite and not negative?
    pub fn is_valid(&self) -> bool {
        [self.cached, self.cache_write, self.output]
            .iter()
            .all(|p| p.is_finite() && *p >= 0.0)
    }
}

/// What the session observes, in tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observed {
    /// Mean tokens appended per call.
    pub growth: f64,
    /// The stable prefix: leading system messages, injected context and the task.
    pub stable: u64,
    /// The conversation now.
    pub tokens: u64,
    /// The configured target.
    pub target: u64,
    /// The absolute limit.
    pub absolute: u64,
    /// The room a cut leaves the summaries (their trails included).
    pub summary: u64,
    /// Recent calls kept raw.
    pub keep_turns: usize,
    /// The newest turn: it stays verbatim whatever the cut.
    pub newest: u64,
}

/// The tokens a compaction should bring the conversation to: the floor of what must
/// stay, at most the configured target. The raw tail is `keep_turns` calls of growth, and
/// never less than the newest turn: it stays verbatim however deep the cut, and a floor
/// that left it no room would squeeze the summaries to nothing (an 8,000-token output
/// kept beside a 100-token summary of everything before it).
pub fn depth(seen: &Observed) -> u64 {
    let tail = (seen.growth * seen.keep_turns as f64).max(seen.newest as f64);
    let floor = seen.stable as f64 + seen.summary as f64 + tail;
    if floor.is_finite() && floor < seen.target as f64 {
        floor as u64
    } else {
        seen.target
    }
}

/// The size at which a cut to `depth` is cheapest to make, per call of the run: a cut at
/// `T` starts a cycle of `(T − depth) / g` calls whose prompts average `(T + depth) / 2`,
/// and pays the rewrite and the summary's output `K = (w − c)·(depth − P) + o·s` once
/// ([module docs](self)), so the cost per call `c·(T + depth)/2 + g·K/(T − depth)` is least
/// at `T = depth + √(2·g·K / c)`. `None` when nothing is cheaper than waiting (free cache
/// reads, no growth seen).
pub fn cheapest_trigger(seen: &Observed, prices: &Prices, depth: u64) -> Option<u64> {
    if prices.cached <= 0.0 || seen.growth <= 0.0 {
        return None;
    }
    let rewrite =
        (prices.cache_write - prices.cached).max(0.0) * depth.saturating_sub(seen.stable) as f64;
    let answer = seen.summary as f64 * (1.0 - Sizing::THRIFT.trail_share);
    let once = rewrite + prices.output * answer;
    let span = (2.0 * seen.growth * once / prices.cached).sqrt();
    let at = depth as f64 + span;
    (at.is_finite() && at < seen.absolute as f64).then_some(at as u64)
}

/// The size above which a cut to `depth` is made: the configured `trigger`, or the size
/// at which the cut is cheapest ([`cheapest_trigger`]) when that comes first.
pub fn trigger(seen: &Observed, prices: &Prices, depth: u64, trigger: u64) -> u64 {
    cheapest_trigger(seen, prices, depth).map_or(trigger, |at| at.min(trigger))
}

/// Does a cut to `depth` pay for itself before the absolute limit forces the next one?
pub fn pays(seen: &Observed, prices: &Prices, depth: u64) -> bool {
    if seen.tokens <= depth || seen.growth <= 0.0 {
        return false;
    }
    let cut = (seen.tokens - depth) as f64;
    let calls = seen.absolute.saturating_sub(depth) as f64 / seen.growth;
    let rewrite =
        (prices.cache_write - prices.cached).max(0.0) * depth.saturating_sub(seen.stable) as f64;
    let once = rewrite + cut + prices.output * seen.summary as f64;
    prices.cached * cut * calls >= once
}

#[cfg(test)]
mod tests {
    use super::*;

    fn observed(growth: f64, window: u64) -> Observed {
        Observed {
            growth,
            stable: 1_000,
            tokens: window * 92 / 100,
            target: window * 75 / 100,
            absolute: window,
            summary: 1_000,
            keep_turns: 4,
            newest: 0,
        }
    }

    #[test]
    fn the_cut_is_deep_whatever_the_configured_target() {
        let seen = observed(500.0, 20_000);
        assert_eq!(depth(&seen), 4_000);
        assert!(depth(&seen) < seen.target / 3);
        // Fast growth keeps a larger tail, never more than the target.
        assert_eq!(depth(&observed(10_000.0, 20_000)), 15_000);
    }

    #[test]
    fn a_cut_that_cannot_pay_back_waits() {
        let prices = Prices::default();
        let large = observed(500.0, 20_000);
        assert!(pays(&large, &prices, depth(&large)));
        let small = observed(700.0, 8_000);
        assert!(!pays(&small, &prices, depth(&small)));
        // Free cache reads: a cut never saves anything.
        let free = Prices {
            cached: 0.0,
            ..prices
        };
        assert!(!pays(&large, &free, depth(&large)));
    }
}
