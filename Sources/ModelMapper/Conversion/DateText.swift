import Foundation

/// Byte-level parsing and formatting of the date texts APIs commonly send.
///
/// Parsing accepts, all as UTF-8 bytes:
/// - ISO 8601 / RFC 3339: `2024-11-08T21:15:03Z`, with `T`, `t` or a space between date and
///   time, optional seconds, any number of fraction digits, and a zone of `Z`, `±HH:MM`,
///   `±HHMM` or `±HH`; no zone means UTC;
/// - a date alone (`2024-11-08`, also with `/` separators) as midnight UTC;
/// - the basic ISO form `20241108T211503Z`;
/// - RFC 2822 / HTTP dates: `Fri, 08 Nov 2024 21:15:03 GMT`, `8 Nov 2024 21:15 +0100`;
/// - Twitter's and Weibo's `Fri Sep 04 00:12:21 +0800 2015` (also with `.000` after the
///   seconds), the forms YYModel reads.
///
/// Numbers are handled by the caller (seconds or milliseconds since 1970).
enum DateText {
    /// The date in `text`, or `nil` when it is in none of the accepted forms or out of range.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = Scanner(bytes: text)
        if let date = scanner.isoDate() { return date }
        scanner = Scanner(bytes: text)
        if let date = scanner.rfc2822Date() { return date }
        scanner = Scanner(bytes: text)
        return scanner.twitterDate()
    }

    /// The date in `text` when it is in one of the ISO 8601 forms (not RFC 2822).
    static func parseISO8601(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = Scanner(bytes: text)
        return scanner.isoDate()
    }

    /// The date in `text` (see ``parse(_:)-(UnsafeBufferPointer<UInt8>)``).
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// ISO 8601 in UTC with milliseconds when the date has a fraction of a second:
    /// `2024-11-08T21:15:03Z`, `2024-11-08T21:15:03.250Z`.
    static func iso8601(_ date: Date) -> String {
        var bytes: [UInt8] = []
        writeISO8601(date, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``iso8601(_:)``'s text, quoted, to `bytes` without building a `String`.
    static func writeQuotedISO8601(_ date: Date, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        writeISO8601(date, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    private static func writeISO8601(_ date: Date, into bytes: inout [UInt8]) {
        let t = date.timeIntervalSince1970
        // Beyond ±9999 years there is no ISO 8601 text without extensions: write the number.
        guard t.isFinite, abs(t) < 253_402_300_800 else {
            bytes.append(contentsOf: "\(t)".utf8)
            return
        }
        var seconds = Int64(t.rounded(.down))
        var millis = Int64(((t - Double(seconds)) * 1000).rounded())
        if millis == 1000 {
            seconds += 1
            millis = 0
        }
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        @inline(__always) func digits(_ v: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = v
            while divisor > 0 {
                bytes.append(UInt8(truncatingIfNeeded: rest / divisor) &+ 48)
                rest %= divisor
                divisor /= 10
            }
        }
        if year < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(abs(year), 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        if millis != 0 {
            bytes.append(UInt8(ascii: "."))
            digits(millis, 3)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let q = a / b
        let r = a % b
        return r < 0 ? (q - 1, r + b) : (q, r)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civil(fromDays z0: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// A cursor over date text; every read is bounds-checked.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            i += 1
            return true
        }

        /// Exactly `count` decimal digits.
        mutating func digits(_ count: Int) -> Int64? {
            guard i + count <= bytes.count else { return nil }
            var v: Int64 = 0
            for k in i..<(i + count) {
                let d = bytes[k] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int64(d)
            }
            i += count
            return v
        }

        /// One or two decimal digits.
        mutating func shortNumber() -> Int64? {
            guard let first = digits(1) else { return nil }
            if let p = peek, p &- 48 < 10 { i += 1; return first * 10 + Int64(p - 48) }
            return first
        }

        mutating func skipSpaces() { while peek == 0x20 { i += 1 } }

        func makeDate(
            _ year: Int64, _ month: Int64, _ day: Int64,
            _ hour: Int64, _ minute: Int64, _ second: Int64, nanos: Int64, offset: Int64
        ) -> Date? {
            guard (1...12).contains(month), day >= 1, day <= daysInMonth(month, year: year),
                (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
            else { return nil }
            let secs = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
            return Date(timeIntervalSince1970: Double(secs) + Double(nanos) / 1e9)
        }

        /// A zone suffix: `Z`, `±HH:MM`, `±HHMM`, `±HH`, or nothing (UTC). Offset in seconds.
        mutating func zone() -> Int64? {
            guard let p = peek else { return 0 }
            if p == UInt8(ascii: "Z") || p == UInt8(ascii: "z") { i += 1; return 0 }
            guard p == UInt8(ascii: "+") || p == UInt8(ascii: "-") else { return nil }
            i += 1
            guard let hours = digits(2), hours <= 23 else { return nil }
            var minutes: Int64 = 0
            if take(UInt8(ascii: ":")) {
                guard let m = digits(2) else { return nil }
                minutes = m
            } else if !atEnd {
                guard let m = digits(2) else { return nil }
                minutes = m
            }
            guard minutes <= 59 else { return nil }
            let offset = hours * 3600 + minutes * 60
            return p == UInt8(ascii: "-") ? -offset : offset
        }

        mutating func isoDate() -> Date? {
            guard let year = digits(4) else { return nil }
            let separator = peek
            let basic = separator.map { $0 &- 48 < 10 } ?? false
            if !basic {
                guard separator == UInt8(ascii: "-") || separator == UInt8(ascii: "/") else { return nil }
                i += 1
            }
            guard let month = digits(2) else { return nil }
            if !basic { guard let s = separator, take(s) else { return nil } }
            guard let day = digits(2) else { return nil }
            if atEnd { return makeDate(year, month, day, 0, 0, 0, nanos: 0, offset: 0) }
            guard let t = peek, t == UInt8(ascii: "T") || t == UInt8(ascii: "t") || t == 0x20 else { return nil }
            i += 1
            guard let hour = digits(2) else { return nil }
            if !basic { guard take(UInt8(ascii: ":")) else { return nil } }
            guard let minute = digits(2) else { return nil }
            var second: Int64 = 0
            var nanos: Int64 = 0
            if basic || take(UInt8(ascii: ":")) {
                guard let s = digits(2) else { return nil }
                second = s
                if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                    var scale: Int64 = 100_000_000
                    var count = 0
                    while let p = peek, p &- 48 < 10 {
                        nanos += Int64(p - 48) * scale
                        scale /= 10
                        count += 1
                        i += 1
                    }
                    guard count > 0 else { return nil }
                }
            }
            skipSpaces()
            guard let offset = zone(), atEnd else { return nil }
            return makeDate(year, month, day, hour, minute, second, nanos: nanos, offset: offset)
        }

        private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

        mutating func word() -> String {
            var s = ""
            while let p = peek, (p | 0x20) >= UInt8(ascii: "a"), (p | 0x20) <= UInt8(ascii: "z") {
                s.append(Character(Unicode.Scalar(p | 0x20)))
                i += 1
            }
            return s
        }

        mutating func rfc2822Date() -> Date? {
            skipSpaces()
            if let p = peek, p &- 48 >= 10 {
                // Optional day name and comma.
                guard word().count >= 3 else { return nil }
                _ = take(UInt8(ascii: ","))
                skipSpaces()
            }
            guard let day = shortNumber() else { return nil }
            skipSpaces()
            let monthName = word()
            guard monthName.count >= 3, let index = Self.months.firstIndex(of: String(monthName.prefix(3))) else {
                return nil
            }
            skipSpaces()
            guard let year = digits(4) else { return nil }
            skipSpaces()
            guard let hour = shortNumber(), take(UInt8(ascii: ":")), let minute = digits(2) else { return nil }
            var second: Int64 = 0
            if take(UInt8(ascii: ":")) {
                guard let s = digits(2) else { return nil }
                second = s
            }
            skipSpaces()
            var offset: Int64 = 0
            if !atEnd {
                let start = i
                let name = word()
                if name.isEmpty {
                    i = start
                    guard let p = peek, p == UInt8(ascii: "+") || p == UInt8(ascii: "-") else { return nil }
                    i += 1
                    guard let hhmm = digits(4) else { return nil }
                    let o = (hhmm / 100) * 3600 + (hhmm % 100) * 60
                    offset = p == UInt8(ascii: "-") ? -o : o
                } else {
                    guard ["gmt", "utc", "ut", "z"].contains(name) else { return nil }
                }
            }
            skipSpaces()
            guard atEnd else { return nil }
            return makeDate(year, Int64(index + 1), day, hour, minute, second, nanos: 0, offset: offset)
        }

        /// `Fri Sep 04 00:12:21 +0800 2015` or `Fri Sep 04 00:12:21.000 +0800 2015`.
        mutating func twitterDate() -> Date? {
            guard word().count >= 3 else { return nil }
            skipSpaces()
            let monthName = word()
            guard monthName.count >= 3, let index = Self.months.firstIndex(of: String(monthName.prefix(3))) else {
                return nil
            }
            skipSpaces()
            guard let day = shortNumber() else { return nil }
            skipSpaces()
            guard let hour = digits(2), take(UInt8(ascii: ":")), let minute = digits(2), take(UInt8(ascii: ":")),
                let second = digits(2)
            else { return nil }
            var nanos: Int64 = 0
            if take(UInt8(ascii: ".")) {
                guard let millis = digits(3) else { return nil }
                nanos = millis * 1_000_000
            }
            skipSpaces()
            guard let sign = peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            i += 1
            guard let hhmm = digits(4), hhmm / 100 <= 23, hhmm % 100 <= 59 else { return nil }
            let magnitude = (hhmm / 100) * 3600 + (hhmm % 100) * 60
            skipSpaces()
            guard let year = digits(4), atEnd else { return nil }
            return makeDate(
                year, Int64(index + 1), day, hour, minute, second, nanos: nanos,
                offset: sign == UInt8(ascii: "-") ? -magnitude : magnitude)
        }
    }
}
