import Foundation
import Testing

@testable import ModelMapper

/// Date texts against Foundation's ISO8601DateFormatter and DateFormatter as oracles.
@Suite struct DateTextTests {
    static func iso(_ text: String, fractional: Bool = false) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = fractional ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func formatted(_ text: String, _ format: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.date(from: text)
    }

    @Test(arguments: [
        "2024-11-08T21:15:03Z", "2009-04-02T03:35:22Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z",
        "2024-02-29T12:00:00+05:30", "2024-11-08T21:15:03-08:00", "1600-03-01T00:00:00Z", "9999-12-31T23:59:59Z",
    ])
    func internetDateTimeMatchesISO8601DateFormatter(_ text: String) throws {
        let oracle = try #require(Self.iso(text))
        #expect(DateText.parse(text) == oracle)
    }

    @Test(arguments: ["2024-11-08T21:15:03.5Z", "2024-11-08T21:15:03.123Z", "2024-11-08T21:15:03.250+01:00"])
    func fractionsMatchISO8601DateFormatter(_ text: String) throws {
        let oracle = try #require(Self.iso(text, fractional: true))
        let ours = try #require(DateText.parse(text))
        #expect(abs(ours.timeIntervalSince(oracle)) < 1e-6)
    }

    @Test(arguments: [
        ("2024-11-08 21:15:03", "yyyy-MM-dd HH:mm:ss"), ("2024-11-08", "yyyy-MM-dd"), ("2024/11/08", "yyyy/MM/dd"),
        ("2024-11-08T21:15", "yyyy-MM-dd'T'HH:mm"), ("20241108T211503Z", "yyyyMMdd'T'HHmmss'Z'"),
        ("Fri, 08 Nov 2024 21:15:03 GMT", "EEE, dd MMM yyyy HH:mm:ss 'GMT'"),
        ("8 Nov 2024 21:15:03 +0100", "d MMM yyyy HH:mm:ss Z"), ("2024-11-08T21:15:03+0100", "yyyy-MM-dd'T'HH:mm:ssZ"),
    ])
    func commonFormatsMatchDateFormatter(_ text: String, _ format: String) throws {
        let oracle = try #require(Self.formatted(text, format))
        #expect(DateText.parse(text) == oracle, "\(text)")
    }

    @Test(arguments: [
        "", "2024", "2024-13-01", "2024-02-30", "2023-02-29", "2024-11-08T25:00:00Z", "2024-11-08T21:61:00Z",
        "2024-11-08T21:15:03+2500", "2024-11-08X21:15:03Z", "2024-11-08T21:15:03Zjunk", "yesterday",
        "2024-11-08T21:15:03.Z", "Fri, 08 Foo 2024 21:15:03 GMT",
    ])
    func nonsenseIsRejected(_ text: String) {
        #expect(DateText.parse(text) == nil, "\(text)")
    }

    @Test func yearsBefore1582AreProlepticGregorian() {
        // ISO 8601 counts Gregorian years back past 1582: 2000 Gregorian years before 2001-01-01
        // have 2000 * 365 days plus one per leap year (every 4th, not 100th, but 400th).
        let leapDays = 2000 / 4 - 2000 / 100 + 2000 / 400
        let expected = Date(timeIntervalSinceReferenceDate: -Double(2000 * 365 + leapDays) * 86_400)
        #expect(DateText.parse("0001-01-01T00:00:00Z") == expected)
    }

    @Test func formattingRoundTripsAtMillisecondPrecision() throws {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let millis = Int64.random(in: -62_135_596_800_000...253_402_300_799_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            let text = DateText.iso8601(date)
            let back = try #require(DateText.parse(text), "\(text)")
            #expect(abs(back.timeIntervalSince1970 - date.timeIntervalSince1970) < 1e-4, "\(text)")
            // Foundation switches to the Julian calendar before 1582; ISO 8601 does not.
            if millis % 1000 == 0, millis > -12_000_000_000_000, let oracle = Self.iso(text) { #expect(oracle == date, "\(text)") }
        }
    }
}
