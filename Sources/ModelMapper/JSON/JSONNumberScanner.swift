import Foundation

/// Why a JSON number could not become the requested Swift number.
enum NumberConversionFailure: Error, Equatable {
    /// The value is outside the target type's range.
    case overflow
    /// The value has a fractional part and the target is an integer.
    case fractional
    /// The text is not a JSON number.
    case malformed
}

/// Exact conversions from validated JSON number text (as UTF-8 bytes) to Swift numbers.
///
/// Integers are assembled digit by digit with overflow checks, so `1e3` and `10.0` become
/// `1000` and `10`, `1.5` is reported as fractional and `1e30` as overflow: nothing traps and
/// nothing wraps. Doubles take Clinger's exact fast path when the digits allow it and the
/// standard library's correctly rounded parser otherwise.
enum JSONNumberScanner {
    /// The end of a JSON number starting at `start`, and whether it has neither fraction nor
    /// exponent; `nil` when the bytes there are not a JSON number.
    @inline(__always)
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, isInteger: Bool)? {
        var i = start
        let n = bytes.count
        if i < n && bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if bytes[i] >= UInt8(ascii: "1") && bytes[i] <= UInt8(ascii: "9") {
            i += 1
            while i < n && isDigit(bytes[i]) { i += 1 }
        } else {
            return nil
        }
        var isInteger = true
        if i < n && bytes[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard i < n && isDigit(bytes[i]) else { return nil }
            while i < n && isDigit(bytes[i]) { i += 1 }
        }
        if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            isInteger = false
            i += 1
            if i < n && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < n && isDigit(bytes[i]) else { return nil }
            while i < n && isDigit(bytes[i]) { i += 1 }
        }
        return (i, isInteger)
    }

    /// Whether the whole buffer is exactly one JSON number.
    static func isValidNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let (end, _) = scan(bytes, from: 0) else { return false }
        return end == bytes.count
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// The number as an integer of type `I`, exactly.
    ///
    /// - Throws: `.fractional` when the value is not whole, `.overflow` when it does not fit
    ///   `I`, `.malformed` when the text is not a JSON number.
    static func integer<I: FixedWidthInteger>(
        _ bytes: UnsafeBufferPointer<UInt8>, as type: I.Type
    ) throws(NumberConversionFailure) -> I {
        let n = bytes.count
        guard n > 0 else { throw .malformed }
        var i = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        // Fast path: plain digits.
        var magnitude: UInt64 = 0
        var plain = i < n
        while i < n {
            let d = bytes[i] &- UInt8(ascii: "0")
            guard d < 10 else { plain = false; break }
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(d))
            if o1 || o2 { throw .overflow }
            magnitude = m2
            i += 1
        }
        if !plain { magnitude = try wholeMagnitude(bytes, from: negative ? 1 : 0) }
        return try apply(sign: negative, to: magnitude, as: I.self)
    }

    @inline(__always)
    private static func apply<I: FixedWidthInteger>(
        sign negative: Bool, to magnitude: UInt64, as type: I.Type
    ) throws(NumberConversionFailure) -> I {
        if !negative {
            guard let value = I(exactly: magnitude) else { throw .overflow }
            return value
        }
        if magnitude == 0 { return 0 }
        guard I.isSigned else { throw .overflow }
        // |I.min| == I.max + 1 for every signed fixed-width integer.
        let maxMagnitude = UInt64(truncatingIfNeeded: I.max)
        if magnitude <= maxMagnitude { return 0 - I(truncatingIfNeeded: magnitude) }
        if magnitude == maxMagnitude &+ 1 { return I.min }
        throw .overflow
    }

    /// The magnitude of a number with fraction and/or exponent, when it is whole.
    private static func wholeMagnitude(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int
    ) throws(NumberConversionFailure) -> UInt64 {
        let n = bytes.count
        var i = start
        let intStart = i
        while i < n && isDigit(bytes[i]) { i += 1 }
        let intEnd = i
        guard intEnd > intStart else { throw .malformed }
        var fracStart = i
        var fracEnd = i
        if i < n && bytes[i] == UInt8(ascii: ".") {
            i += 1
            fracStart = i
            while i < n && isDigit(bytes[i]) { i += 1 }
            fracEnd = i
            guard fracEnd > fracStart else { throw .malformed }
        }
        var exponent = 0
        if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            var expNegative = false
            if i < n && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < n && isDigit(bytes[i]) else { throw .malformed }
            while i < n && isDigit(bytes[i]) {
                // Saturate: past a million the answer (overflow or fraction) no longer changes.
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            if expNegative { exponent = -exponent }
        }
        guard i == n else { throw .malformed }

        // The digits int ++ frac, read through one index space.
        let intCount = intEnd - intStart
        let total = intCount + (fracEnd - fracStart)
        @inline(__always) func digit(_ k: Int) -> UInt8 {
            k < intCount ? bytes[intStart + k] &- 48 : bytes[fracStart + k - intCount] &- 48
        }
        var last = total - 1
        while last >= 0 && digit(last) == 0 { last -= 1 }
        if last < 0 { return 0 }  // all zeros, whatever the exponent
        var first = 0
        while digit(first) == 0 { first += 1 }
        // value = digits[first...last] * 10^(exponent - fracCount + trailingZeros)
        let scale = exponent - (fracEnd - fracStart) + (total - 1 - last)
        if scale < 0 { throw .fractional }
        if (last - first + 1) + scale > 20 { throw .overflow }
        var magnitude: UInt64 = 0
        for k in first...last {
            let (m1, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (m2, o2) = m1.addingReportingOverflow(UInt64(digit(k)))
            if o1 || o2 { throw .overflow }
            magnitude = m2
        }
        for _ in 0..<scale {
            let (m, o) = magnitude.multipliedReportingOverflow(by: 10)
            if o { throw .overflow }
            magnitude = m
        }
        return magnitude
    }

    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The number as a correctly rounded `Double`.
    ///
    /// - Throws: `.overflow` when the magnitude is beyond `Double.greatestFiniteMagnitude`.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) throws(NumberConversionFailure) -> Double {
        let n = bytes.count
        var i = 0
        let negative = n > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fracDigits = 0
        var seenDot = false
        var fast = true
        while i < n {
            let b = bytes[i]
            let d = b &- UInt8(ascii: "0")
            if d < 10 {
                if digits > 0 || d != 0 { digits += 1 }
                if digits > 15 { fast = false; break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                if seenDot { fracDigits += 1 }
            } else if b == UInt8(ascii: ".") && !seenDot {
                seenDot = true
            } else {
                fast = false
                break
            }
            i += 1
        }
        if fast && fracDigits <= 22 {
            // Clinger: both the mantissa (< 10^15 < 2^53) and the power of ten are exact,
            // so one correctly rounded division gives the correctly rounded result.
            let value = Double(mantissa) / exactPowersOfTen[fracDigits]
            return negative ? -value : value
        }
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else { throw .malformed }
        guard value.isFinite else { throw .overflow }
        return value
    }

    /// The number as a correctly rounded `Float`.
    static func float(_ bytes: UnsafeBufferPointer<UInt8>) throws(NumberConversionFailure) -> Float {
        guard let value = Float(String(decoding: bytes, as: UTF8.self)) else { throw .malformed }
        guard value.isFinite else { throw .overflow }
        return value
    }

    /// The number as an exact `Decimal`.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) throws(NumberConversionFailure) -> Decimal {
        guard let value = Decimal(string: String(decoding: bytes, as: UTF8.self), locale: posixLocale),
            !value.isNaN
        else { throw .overflow }
        return value
    }

    static let posixLocale = Locale(identifier: "en_US_POSIX")
}
