//! Chat conversations with rules and decisions stated in middle turns, for the test that
//! they survive compaction: generated here (deterministic, varied), or read from a folder.

use std::path::Path;

use serde_json::{Value, json};

/// A decision of a conversation and whether a later one replaced it.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The user's words, verbatim.
    pub text: String,
    /// A later decision replaced it.
    pub superseded: bool,
    /// The decision that replaced it.
    pub superseded_by: Option<String>,
}

/// A conversation and what it must keep.
#[derive(Debug, Clone)]
pub struct Chat {
    /// Its name.
    pub name: String,
    /// A JSON array of OpenAI Chat messages.
    pub json: String,
    /// The rules, verbatim.
    pub rules: Vec<String>,
    /// The decisions, in order.
    pub decisions: Vec<Decision>,
}

/// Reads `NAME.json` with `NAME.truth.json` beside it (`{"rules": [..], "decisions":
/// [{"text", "superseded", "superseded_by"}]}`), sorted by name.
pub fn read_folder(dir: &Path) -> Vec<Chat> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json") && !n.ends_with(".truth.json"))
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|name| {
            let stem = name.trim_end_matches(".json");
            let truth = std::fs::read_to_string(dir.join(format!("{stem}.truth.json"))).ok()?;
            let truth: Value = serde_json::from_str(&truth).ok()?;
            let json = std::fs::read_to_string(dir.join(&name)).ok()?;
            let strings = |v: &Value| -> Vec<String> {
                v.as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|s| s.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let decisions = truth["decisions"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|d| {
                            Some(Decision {
                                text: d["text"].as_str()?.to_owned(),
                                superseded: d["superseded"].as_bool().unwrap_or(false),
                                superseded_by: d["superseded_by"].as_str().map(str::to_owned),
                            })
                        })
                        .collect()
                })
                .unwrap_or_default();
            Some(Chat {
                name: stem.to_owned(),
                json,
                rules: strings(&truth["rules"]),
                decisions,
            })
        })
        .collect()
}

/// One subject a conversation can be about.
struct Domain {
    task: &'static str,
    rules: &'static [&'static str],
    /// Choices: what is chosen, and the options.
    choices: &'static [(&'static str, &'static [&'static str])],
    user_filler: &'static [&'static str],
    assistant_filler: &'static [&'static str],
}

const DOMAINS: &[Domain] = &[
    Domain {
        task: "I'm building an invoicing service for small shops. Can you help me plan it step by step?",
        rules: &[
            "Never use floating point numbers for money amounts.",
            "Every endpoint must require an API key, even internal ones.",
            "Don't log customer email addresses anywhere.",
            "From now on, write all amounts in cents as integers.",
            "Keep every migration reversible, no exceptions.",
        ],
        choices: &[
            ("database", &["PostgreSQL", "MySQL", "SQLite"]),
            ("queue", &["RabbitMQ", "Redis Streams", "SQS"]),
            ("PDF library", &["WeasyPrint", "ReportLab", "wkhtmltopdf"]),
        ],
        user_filler: &[
            "How long do you think the first version will take?",
            "My cousin runs a bakery and keeps asking when she can try it.",
            "Can you remind me what a webhook retry usually looks like?",
            "I had a long day, sorry if I'm slow today.",
        ],
        assistant_filler: &[
            "A first version with invoices, customers and payments usually takes a few weeks of focused work. Most of the time goes into edge cases around refunds and partial payments.",
            "Webhook retries are normally done with exponential backoff: the sender waits longer after each failure and gives up after a fixed number of attempts. Idempotency keys keep retries from creating duplicates.",
            "No problem at all. We can take this one piece at a time and come back to anything that feels unclear.",
            "That's a nice early user to have. Real shops tend to find the rough edges in the invoice layout very quickly.",
        ],
    },
    Domain {
        task: "We're planning a two-week trip through Japan in April. Help me put the itinerary together.",
        rules: &[
            "Always keep at least one free afternoon every three days.",
            "We must avoid overnight buses, my partner can't sleep on them.",
            "Please never book anything that needs a car.",
            "Stick to vegetarian restaurants for every dinner suggestion.",
            "Don't schedule more than two cities in a row without a rest day.",
        ],
        choices: &[
            ("first city", &["Tokyo", "Osaka", "Fukuoka"]),
            (
                "rail pass",
                &["the national JR Pass", "regional passes", "single tickets"],
            ),
            ("lodging", &["ryokans", "business hotels", "apartments"]),
        ],
        user_filler: &[
            "I just remembered I need to renew my passport soon.",
            "Is it true that cherry blossoms are already gone by mid April in the south?",
            "My partner keeps watching travel videos instead of packing.",
            "What's the weather usually like there in spring?",
        ],
        assistant_filler: &[
            "Spring in Japan is mild: days are usually between twelve and twenty degrees, with occasional rain. A light jacket and an umbrella cover most days.",
            "Cherry blossoms open earlier in the south and later in the north, so by mid April the southern trees are often past their peak while the north is just starting.",
            "Renewing early is a good idea; many countries also want six months of validity left on arrival.",
            "Videos are a good way to pick neighbourhoods, even if the packing waits a little.",
        ],
    },
    Domain {
        task: "Help me set up the deployment pipeline for our web app.",
        rules: &[
            "Never deploy to production on a Friday.",
            "All secrets have to be read from the vault, not from environment files.",
            "Every release must go through the staging cluster first.",
            "Going forward, pin every container image by digest.",
            "Don't give the CI runner admin rights on the cluster.",
        ],
        choices: &[
            ("CI system", &["GitHub Actions", "GitLab CI", "Buildkite"]),
            ("orchestrator", &["Kubernetes", "Nomad", "ECS"]),
            (
                "rollout strategy",
                &["blue-green", "canary", "rolling updates"],
            ),
        ],
        user_filler: &[
            "Our office coffee machine broke again this morning.",
            "How do other teams usually name their environments?",
            "I'll be out on Tuesday for a dentist appointment.",
            "Do you think monorepos are worth it for a team of six?",
        ],
        assistant_filler: &[
            "Most teams use a short fixed set of names such as dev, staging and production, so that dashboards and alerts read the same everywhere.",
            "For a team of six a monorepo often pays off: one pipeline, shared tooling and atomic changes across services. It gets harder when builds become slow.",
            "Thanks for letting me know; we can plan the pipeline work around that day.",
            "That sounds like a rough start to the day.",
        ],
    },
    Domain {
        task: "I want to cook a dinner for eight people next Saturday. Can you help me plan the menu?",
        rules: &[
            "No peanuts in anything, one guest has a severe allergy.",
            "Keep every dish gluten free from here on.",
            "Always give quantities in grams, not cups.",
            "Please avoid anything that needs deep frying.",
            "Make sure each course can be prepared the day before.",
        ],
        choices: &[
            (
                "main course",
                &["roast chicken", "a mushroom risotto", "braised lamb"],
            ),
            (
                "dessert",
                &["a lemon tart", "chocolate mousse", "poached pears"],
            ),
            (
                "starter",
                &["a beet salad", "gazpacho", "grilled asparagus"],
            ),
        ],
        user_filler: &[
            "My oven is a bit small, is that going to be a problem?",
            "I haven't hosted this many people in years.",
            "Do you have a tip for keeping the kitchen tidy while cooking?",
            "The neighbours might join us for dessert.",
        ],
        assistant_filler: &[
            "A small oven is manageable if the dishes are staggered: bake the dessert first, then the main course, and keep the starter cold.",
            "Cleaning as you go helps a lot: wash bowls while things simmer and keep a bin bowl on the counter for scraps.",
            "That's a lovely reason to cook. Planning ahead makes the evening itself much calmer.",
            "Dessert for a few more people is easy to scale, especially with a tart or a mousse.",
        ],
    },
    Domain {
        task: "Let's write a short fantasy story together, about a cartographer who finds a map of a city that doesn't exist.",
        rules: &[
            "Write everything in the past tense.",
            "Never kill off the cartographer, whatever happens in the plot.",
            "Keep each chapter under five hundred words.",
            "Don't use the word suddenly anywhere in the story.",
            "Always end a chapter on a question the reader wants answered.",
        ],
        choices: &[
            (
                "narrator",
                &[
                    "first person",
                    "close third person",
                    "an omniscient narrator",
                ],
            ),
            (
                "setting",
                &[
                    "a port town",
                    "a mountain monastery",
                    "a desert caravan city",
                ],
            ),
            (
                "ending",
                &["an open ending", "a bittersweet ending", "a happy ending"],
            ),
        ],
        user_filler: &[
            "I've been reading a lot of old travel journals lately.",
            "Do you like maps as much as I do?",
            "My writing group meets on Thursdays, I might show them this.",
            "Sorry, I got distracted by the rain outside.",
        ],
        assistant_filler: &[
            "Old travel journals are full of small concrete details, which are exactly what make an invented place feel real on the page.",
            "Maps are wonderful story engines: every blank space invites a question about what is there.",
            "A writing group is a good first audience; they will notice where the pacing drags.",
            "Rain is good writing weather. We can pick up where we left off.",
        ],
    },
    Domain {
        task: "I need to get my personal finances in order this year. Can you help me make a plan?",
        rules: &[
            "Never suggest individual stocks, only broad index funds.",
            "We have to keep three months of expenses in cash at all times.",
            "Don't count the bonus as income until it's actually paid.",
            "I prefer round numbers, always round to the nearest ten.",
            "Make sure every plan fits on one page.",
        ],
        choices: &[
            (
                "budgeting method",
                &[
                    "zero-based budgeting",
                    "the 50/30/20 rule",
                    "envelope budgeting",
                ],
            ),
            (
                "bank",
                &["the credit union", "an online bank", "my current bank"],
            ),
            (
                "savings goal",
                &["a house deposit", "a sabbatical", "paying off the car"],
            ),
        ],
        user_filler: &[
            "My sister says I spend too much on takeaway.",
            "Is it normal to feel anxious about money in January?",
            "I found an old savings account I forgot about.",
            "What's the difference between a fund and an ETF again?",
        ],
        assistant_filler: &[
            "Many people feel that way after the holidays; spending is high in December and the new year makes everything feel urgent.",
            "A fund pools money to buy many assets; an ETF is a fund whose shares trade on an exchange during the day, like a stock.",
            "A forgotten account is a pleasant surprise. It is worth checking its interest rate and any fees.",
            "Takeaway is one of the easiest categories to trim without feeling deprived.",
        ],
    },
];

const DECIDE: &[&str] = &[
    "Let's go with {x} for the {what}.",
    "For the {what}, we'll use {x}.",
    "I've decided on {x} as the {what}.",
    "Let's lock in {x} for the {what}.",
    "OK, I'll take {x} for the {what}.",
];

const OVERRIDE: &[&str] = &[
    "Actually, let's switch the {what} to {y} instead.",
    "Change of plan: {y} for the {what}, not what I said before.",
    "Scratch that, we're going with {y} for the {what}.",
    "On second thought, let's use {y} as the {what} instead.",
];

/// A small deterministic generator (xorshift), so the conversations never change.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// Thirty conversations: each domain five times, with two rules, two choices (one or both
/// overridden, sometimes twice) and filler between, in differing orders.
pub fn generated() -> Vec<Chat> {
    DOMAINS
        .iter()
        .enumerate()
        .flat_map(|(d, domain)| (0..5u64).map(move |variant| conversation(domain, d, variant)))
        .collect()
}

/// A conversation being written: its turns and what it must keep.
struct Writer<'d> {
    domain: &'d Domain,
    rng: Rng,
    turns: Vec<(&'static str, String)>,
    rules: Vec<String>,
    decisions: Vec<Decision>,
}

impl Writer<'_> {
    fn say(&mut self, role: &'static str, text: String) {
        self.turns.push((role, text));
    }

    fn filler(&mut self, pairs: usize) {
        for _ in 0..pairs {
            let answer = (*self.rng.pick(self.domain.assistant_filler)).to_owned();
            let aside = (*self.rng.pick(self.domain.user_filler)).to_owned();
            self.say("assistant", answer);
            self.say("user", aside);
        }
    }

    fn decide(&mut self, what: &str, options: &[&str], pick: &str) {
        let text = self
            .rng
            .pick(DECIDE)
            .replace("{x}", pick)
            .replace("{what}", what);
        self.say(
            "assistant",
            format!(
                "What would you like for the {what}? The options are {}.",
                options.join(", ")
            ),
        );
        self.say("user", text.clone());
        self.decisions.push(Decision {
            text,
            superseded: false,
            superseded_by: None,
        });
    }

    fn rule(&mut self, rule: &str) {
        // Some rules stand alone, some come with a question after them.
        let said = if self.rng.next().is_multiple_of(2) {
            rule.to_owned()
        } else {
            let aside = self.rng.pick(self.domain.user_filler).to_lowercase();
            format!("{rule} Also, {aside}")
        };
        let answer = (*self.rng.pick(self.domain.assistant_filler)).to_owned();
        self.say("assistant", answer);
        self.say("user", said);
        self.rules.push(rule.to_owned());
    }

    fn override_choice(&mut self, what: &str, pick: &str) {
        let text = self
            .rng
            .pick(OVERRIDE)
            .replace("{y}", pick)
            .replace("{what}", what);
        if let Some(previous) = self
            .decisions
            .iter_mut()
            .rev()
            .find(|d| !d.superseded && d.text.contains(what))
        {
            previous.superseded = true;
            previous.superseded_by = Some(text.clone());
        }
        let answer = (*self.rng.pick(self.domain.assistant_filler)).to_owned();
        self.say("assistant", answer);
        self.say("user", text.clone());
        self.decisions.push(Decision {
            text,
            superseded: false,
            superseded_by: None,
        });
    }
}

fn conversation(domain: &Domain, d: usize, variant: u64) -> Chat {
    let mut w = Writer {
        domain,
        rng: Rng(0x9E37_79B9_7F4A_7C15 ^ (((d as u64) << 8) | variant)),
        turns: vec![("user", domain.task.to_owned())],
        rules: Vec::new(),
        decisions: Vec::new(),
    };
    let v = variant as usize;
    let rules = [v % domain.rules.len(), (v + 2) % domain.rules.len()];
    let choices = [
        domain.choices[v % domain.choices.len()],
        domain.choices[(v + 1) % domain.choices.len()],
    ];
    w.filler(3);
    for (step, (what, options)) in choices.iter().enumerate() {
        w.decide(what, options, options[step % options.len()]);
        w.filler(2);
        w.rule(domain.rules[rules[step]]);
        w.filler(2);
    }
    // Overrides: the first choice always, the second in odd variants, twice in one.
    let overridden: &[usize] = if variant % 2 == 1 { &[0, 1] } else { &[0] };
    for (n, &at) in overridden.iter().enumerate() {
        let (what, options) = choices[at];
        let times = if variant == 3 && n == 0 { 2 } else { 1 };
        for time in 0..times {
            w.override_choice(what, options[(at + 1 + time) % options.len()]);
            w.filler(2);
        }
    }
    w.filler(3);
    let closing = (*w.rng.pick(domain.assistant_filler)).to_owned();
    w.say("assistant", closing);
    w.say("user", "Can you sum up where we are?".to_owned());
    let json = Value::Array(
        w.turns
            .into_iter()
            .map(|(role, content)| json!({"role": role, "content": content}))
            .collect(),
    );
    Chat {
        name: format!("chat-{d}-{variant}"),
        json: json.to_string(),
        rules: w.rules,
        decisions: w.decisions,
    }
}
