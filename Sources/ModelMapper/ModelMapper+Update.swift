import Foundation

// Decoding into a model the caller already has (HandyJSON's `update`, YYModel's
// `yy_modelSetWithJSON`, ObjectMapper's `map(JSON:toObject:)`): only the keys the JSON has
// change the model.

extension ModelMapper {
    /// Writes the members `data` has into `model`; every other property keeps its value.
    ///
    /// The model changes only when decoding succeeds (a struct is updated as a copy, then
    /// assigned). In lenient mode values that do not convert are skipped, as in `decode(_:from:at:)` with `Data`.
    ///
    /// ```swift
    /// var settings = Settings()                   // volume 5, muted false
    /// try mapper.update(&settings, from: #"{"muted": true}"#)
    /// // volume 5, muted true
    /// ```
    ///
    /// - Parameters:
    ///   - model: the model to update (a struct, or a class reference: see `update(_:from:at:)` with `Data`).
    ///   - data: UTF-8 JSON; an object, or one reached by `path`.
    ///   - path: a dotted key path to the object to read (overrides the type's designated path).
    /// - Throws: ``MappingError``, as decoding does.
    public func update<T: MappableModel>(_ model: inout T, from data: Data, at path: String? = nil) throws {
        let current = model
        model = try withTape(data) { tape in
            try decodeRoot(UpdatingCodec(current), tape, path: path, designated: plan(for: T.self).designatedPath)
        }
    }

    /// Writes the members `text` has into `model` (see `update(_:from:at:)` with `Data`).
    public func update<T: MappableModel>(_ model: inout T, from text: String, at path: String? = nil) throws {
        let current = model
        model = try withTape(text) { tape in
            try decodeRoot(UpdatingCodec(current), tape, path: path, designated: plan(for: T.self).designatedPath)
        }
    }

    /// Writes the members `data` has into the class instance `object`, in place: every holder
    /// of the reference sees the new values. A subclass instance is updated with its own
    /// class's mapping.
    ///
    /// `let` properties are never changed in place: code that has read one may keep the value
    /// in an optimized build. A key for one is an ``MappingError/Kind/unsettableProperty(type:property:reason:)``
    /// (strict) or is skipped and reported once (lenient). In strict mode an error stops the
    /// update where it happens: the members before it have been written.
    ///
    /// - Throws: ``MappingError``, as decoding does.
    public func update<T: MappableModel & AnyObject>(_ object: T, from data: Data, at path: String? = nil) throws {
        _ = try withTape(data) { tape in
            try decodeRoot(UpdatingCodec(object), tape, path: path, designated: plan(for: T.self).designatedPath)
        }
    }

    /// Writes the members `text` has into the class instance `object`, in place (see
    /// `update(_:from:at:)` with `Data`).
    public func update<T: MappableModel & AnyObject>(_ object: T, from text: String, at path: String? = nil) throws {
        _ = try withTape(text) { tape in
            try decodeRoot(UpdatingCodec(object), tape, path: path, designated: plan(for: T.self).designatedPath)
        }
    }
}

/// Decodes into one existing model (made per call): the root of an update.
final class UpdatingCodec<M: MappableModel>: ValueCodec<M>, @unchecked Sendable {
    let existing: M

    init(_ existing: M) { self.existing = existing }

    override func decode(_ tape: JSONTape, _ i: Int, _ context: DecodeContext) throws -> M {
        try ModelCodec.decode(tape, i, context, updating: existing, plan: context.mapper.plan(for: M.self))
    }
}
