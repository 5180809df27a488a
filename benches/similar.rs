//! Similar-skill ranking time for generated catalogs of 1k, 10k and 60k skills.
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
    println!("{:>8} {:>12} {:>14}", "skills", "rank time", "per skill");
    for n in [1_000, 10_000, 60_000] {
        let topics = generate(n, 42);
        let texts = texts(n, 42);
        let inputs: Vec<SimilarInput> = topics
            .iter()
            .zip(&texts)
            .enumerate()
            .map(|(i, (t, text))| SimilarInput { topics: t, text: vec![text.as_str().into()], content_hash: i as u64 })
            .collect();
        let start = Instant::now();
        let ranked = rank(&inputs, 6);
        let elapsed = start.elapsed();
        assert_eq!(ranked.len(), n);
        println!("{n:>8} {:>10.1}ms {:>12.1}us", elapsed.as_secs_f64() * 1e3, elapsed.as_secs_f64() * 1e6 / n as f64);
    }
}
