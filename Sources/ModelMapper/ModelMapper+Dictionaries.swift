import Foundation

// Top-level JSON objects whose members are models (`{"ann": {...}, "bo": {...}}`), beside
// top-level arrays.

extension ModelMapper {
    /// Decodes a top-level object of models, keyed by its member names. In lenient mode
    /// members that do not convert are left out; in strict mode they fail with their key in the path.
    ///
    /// - Parameters:
    ///   - type: `[String: Model].self`.
    ///   - data: UTF-8 JSON.
    ///   - path: a dotted key path to the object to read.
    public func decode<T: MappableModel>(_ type: [String: T].Type, from data: Data, at path: String? = nil) throws -> [String: T] {
        try withTape(data) {
            try decodeRoot(DictionaryCodec(keys: StringKeyCodec(), value: ModelCodec<T>()), $0, path: path, designated: nil)
        }
    }

    /// Decodes a top-level object of models from JSON text.
    public func decode<T: MappableModel>(_ type: [String: T].Type, from text: String, at path: String? = nil) throws -> [String: T] {
        try withTape(text) {
            try decodeRoot(DictionaryCodec(keys: StringKeyCodec(), value: ModelCodec<T>()), $0, path: path, designated: nil)
        }
    }

    /// Encodes models keyed by name as one JSON object.
    public func encode<T: MappableModel>(_ models: [String: T]) throws -> Data {
        Data(formatted(try encodeBytes(models, codec: DictionaryCodec(keys: StringKeyCodec(), value: ModelCodec<T>()))))
    }
}
