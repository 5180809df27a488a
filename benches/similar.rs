//! Similar-skill ranking time (with each repository's own ranking) for generated catalogs of
//! 1k, 10k and 60k skills: repositories of 50 skills, and one of 5,000 (all of the 1k catalog).
//! Run: `cargo bench --bench similar` (prints figures; asserts nothing about speed).

use std::time::Instant;

use catalog::relate::similar::{SimilarInput, rank};
use catalog::relate::{Topic, Topics};

/// A small deterministic generator (xorshift64*), so every run ranks the same catalog.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Zipf-like: small values far more often than large ones, as words and tags are.
    fn skewed(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((n as f64).powf(u) as usize).saturating_sub(1).min(n - 1)
    }
}

fn generate(n: usize, seed: u64) -> Vec<Topics> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| Topics {
            tags: (0..1 + rng.next() % 5).map(|_| format!("tag{}", rng.skewed(2_000))).collect(),
            categories: vec![Topic { id: format!("c{}", rng.skewed(15)), name: String::new() }],
            products: (0..rng.next() % 3)
                .map(|_| Topic { id: format!("p{}", rng.skewed(40)), name: String::new() })
                .collect(),
        })
        .collect()
}

fn texts(n: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed ^ 0xABCDEF);
    (0..n).map(|_| (0..40).map(|_| format!("w{}", rng.skewed(20_000))).collect::<Vec<_>>().join(" ")).collect()
}

fn main() {
    println!("{:>8} {:>14} {:>14} {:>12}", "skills", "one-skill repos", "repos of 50", "per skill");
    for n in [1_000, 10_000, 60_000] {
        let topics = generate(n, 42);
        let texts = texts(n, 42);
        // Every skill alone in its repository (the similar ranking alone, in effect), then the
        // repositories of 50 and the one of 5,000, each ranked for its own skills too.
        let time = |repo: &dyn Fn(usize) -> usize| {
            let inputs: Vec<SimilarInput> = topics
                .iter()
                .zip(&texts)
                .enumerate()
                .map(|(i, (t, text))| SimilarInput {
                    topics: t,
                    text: vec![text.as_str().into()],
                    content_hash: i as u64,
                    repo: repo(i),
                })
                .collect();
            let start = Instant::now();
            let ranked = rank(&inputs, 6, 12);
            let elapsed = start.elapsed();
            assert_eq!(ranked.similar.len(), n);
            elapsed
        };
        let alone = time(&|i| i);
        let grouped = time(&|i| if i < 5_000 { 0 } else { i / 50 });
        println!(
            "{n:>8} {:>12.1}ms {:>12.1}ms {:>10.1}us",
            alone.as_secs_f64() * 1e3,
            grouped.as_secs_f64() * 1e3,
            grouped.as_secs_f64() * 1e6 / n as f64
        );
    }
}
