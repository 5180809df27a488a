//! Moments as seconds since 1970, and the calendar dates pages and feeds print.

/// A moment, as seconds since 1970-01-01 UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// (year, month 1-12, day 1-31) in UTC.
    pub fn civil(self) -> (i64, u32, u32) {
        // Howard Hinnant's days-to-civil algorithm.
        let z = self.0.div_euclid(86_400) + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        (year, month, day)
    }

    /// `August 12, 2026`
    pub fn long_date(self) -> String {
        const MONTHS: [&str; 12] = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        let (y, m, d) = self.civil();
        format!("{} {d}, {y}", MONTHS[m as usize - 1])
    }

    /// `2026-08-12`
    pub fn iso_date(self) -> String {
        let (y, m, d) = self.civil();
        format!("{y:04}-{m:02}-{d:02}")
    }

    /// `2026-08-12T10:00:00Z`, for feeds and sitemaps.
    pub fn rfc3339(self) -> String {
        let secs = self.0.rem_euclid(86_400);
        format!("{}T{:02}:{:02}:{:02}Z", self.iso_date(), secs / 3600, secs / 60 % 60, secs % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::Timestamp;

    #[test]
    fn timestamps_format_as_utc_dates() {
        assert_eq!(Timestamp(0).iso_date(), "1970-01-01");
        assert_eq!(Timestamp(1_786_536_000).long_date(), "August 12, 2026");
        assert_eq!(Timestamp(1_786_528_800).rfc3339(), "2026-08-12T10:00:00Z");
        assert_eq!(Timestamp(951_782_400).iso_date(), "2000-02-29");
        assert_eq!(Timestamp(-86_400).iso_date(), "1969-12-31");
    }
}
