//! A token bucket per IP address, for requests that are not connections
//! (`GET /ice`): a burst is served at once, then one request per refill
//! interval. Memory is bounded: when the table is full, addresses whose
//! bucket has refilled completely are forgotten (they lose nothing).

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Addresses tracked at most.
const MAX_ADDRESSES: usize = 100_000;

/// The limiter's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Requests served at once from a fresh address.
    pub burst: u32,
    /// One more request is allowed after each interval.
    pub refill: Duration,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// The tokens it holds at `now`.
    fn at(self, rate: Rate, now: Instant) -> f64 {
        let interval = rate.refill.as_secs_f64().max(1e-9);
        let gained = now.saturating_duration_since(self.at).as_secs_f64() / interval;
        (self.tokens + gained).min(f64::from(rate.burst))
    }
}

/// Per-address token buckets.
#[derive(Debug)]
pub struct RateLimiter {
    rate: Rate,
    buckets: HashMap<IpAddr, Bucket>,
}

impl RateLimiter {
    /// A limiter with these settings.
    pub fn new(rate: Rate) -> RateLimiter {
        RateLimiter {
            rate,
            buckets: HashMap::new(),
        }
    }

    /// Takes one token for `ip`; false when it has none left.
    pub fn allow(&mut self, ip: IpAddr, now: Instant) -> bool {
        let rate = self.rate;
        let full = f64::from(rate.burst);
        if self.buckets.len() >= MAX_ADDRESSES && !self.buckets.contains_key(&ip) {
            self.buckets.retain(|_, b| b.at(rate, now) < full);
            if self.buckets.len() >= MAX_ADDRESSES {
                // Every tracked address is mid-burst: refuse newcomers
                // rather than grow without bound.
                return false;
            }
        }
        let tokens = self.buckets.get(&ip).map_or(full, |b| b.at(rate, now));
        let allowed = tokens >= 1.0;
        let tokens = if allowed { tokens - 1.0 } else { tokens };
        self.buckets.insert(ip, Bucket { tokens, at: now });
        allowed
    }

    /// Addresses tracked now.
    pub fn tracked(&self) -> usize {
        self.buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_per_interval() {
        let rate = Rate {
            burst: 3,
            refill: Duration::from_secs(1),
        };
        let mut limiter = RateLimiter::new(rate);
        let t0 = Instant::now();
        let a = IpAddr::from([198, 51, 100, 1]);
        let b = IpAddr::from([198, 51, 100, 2]);
        assert!((0..3).all(|_| limiter.allow(a, t0)));
        assert!(!limiter.allow(a, t0), "the burst is spent");
        assert!(limiter.allow(b, t0), "another address has its own bucket");
        assert!(!limiter.allow(a, t0 + Duration::from_millis(900)));
        assert!(limiter.allow(a, t0 + Duration::from_millis(1900)));
        assert!(!limiter.allow(a, t0 + Duration::from_millis(1950)));
        // A long pause refills the bucket, but only up to the burst.
        let later = t0 + Duration::from_secs(100);
        assert!((0..3).all(|_| limiter.allow(a, later)));
        assert!(!limiter.allow(a, later));
    }

    #[test]
    fn the_table_is_bounded() {
        let rate = Rate {
            burst: 2,
            refill: Duration::from_secs(60),
        };
        let mut limiter = RateLimiter::new(rate);
        let t0 = Instant::now();
        for i in 0..MAX_ADDRESSES as u32 {
            assert!(limiter.allow(IpAddr::from(i.to_be_bytes()), t0));
        }
        assert_eq!(limiter.tracked(), MAX_ADDRESSES);
        let newcomer = IpAddr::from([255, 255, 255, 255]);
        assert!(!limiter.allow(newcomer, t0), "all mid-burst: refused");
        // Once the buckets have refilled they are forgotten.
        assert!(limiter.allow(newcomer, t0 + Duration::from_secs(120)));
        assert_eq!(limiter.tracked(), 1);
    }
}
