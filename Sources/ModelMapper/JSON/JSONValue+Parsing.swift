import Foundation

extension JSONValue {
    /// Parses JSON bytes.
    ///
    /// - Parameters:
    ///   - data: UTF-8 JSON.
    ///   - options: nesting limit and duplicate-key policy.
    /// - Throws: ``JSONReadError`` naming what is wrong and where.
    public init(parsing data: Data, options: JSONReadOptions = JSONReadOptions()) throws {
        self = try data.withUnsafeBytes { raw in
            try JSONReader.withTape(raw.bindMemory(to: UInt8.self), options: options) { $0.value(at: 0) }
        }
    }

    /// Parses JSON text.
    ///
    /// - Parameters:
    ///   - text: JSON.
    ///   - options: nesting limit and duplicate-key policy.
    /// - Throws: ``JSONReadError`` naming what is wrong and where.
    public init(parsing text: String, options: JSONReadOptions = JSONReadOptions()) throws {
        var text = text
        self = try text.withUTF8 { bytes in
            try JSONReader.withTape(bytes, options: options) { $0.value(at: 0) }
        }
    }

    /// Converts a Foundation-style value (`[String: Any]`, `[Any]`, strings, numbers, `Bool`,
    /// `NSNull`) to a ``JSONValue``.
    ///
    /// - Throws: ``JSONWriteError`` for values with no JSON form.
    public init(any value: Any) throws {
        var writer = JSONWriter()
        try writer.any(value)
        self = try JSONValue(parsing: Data(writer.bytes))
    }

    /// The value as Foundation-style `Any` (`[String: Any]`, `[Any]`, `String`, `Int`, `Double`,
    /// `Bool`, `NSNull`).
    public var anyValue: Any {
        var writer = JSONWriter()
        writer.value(self)
        let options = JSONReadOptions(maxDepth: .max)
        let result: Any? = writer.bytes.withUnsafeBufferPointer { bytes in
            try? JSONReader.withTape(bytes, options: options) { tape -> Any in tape.anyValue(at: 0) }
        }
        return result ?? NSNull()
    }

    /// Compact UTF-8 JSON for this value.
    public func jsonData() -> Data {
        var writer = JSONWriter()
        writer.value(self)
        return Data(writer.bytes)
    }

    /// Compact JSON text for this value.
    public func jsonString() -> String {
        var writer = JSONWriter()
        writer.value(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
