import BinaryInfo

extension TargetInspector {
    /// Whether each stored property a type descriptor's field records list is a `var` (its
    /// record's `IsVar` flag), by name, read from the target's memory: the reflection library
    /// does not say, and a generic type's instantiations share their generic type's records.
    ///
    /// A descriptor's field descriptor is its fifth word (`Fields`, a relative pointer); a
    /// field descriptor is `int32 mangledTypeName`, `int32 superclass`, `uint16 kind`,
    /// `uint16 fieldRecordSize`, `uint32 numFields`, then the records (`uint32 flags`,
    /// `int32 mangledTypeName`, `int32 fieldName`; RemoteInspection/Records.h).
    ///
    /// - Parameter descriptor: a struct's or class's type descriptor in the target.
    /// - Returns: nil when the records cannot be read (none, or not in the target).
    public func fieldMutability(ofDescriptor descriptor: UInt64) -> [String: Bool]? {
        guard let records = fieldRecords(ofDescriptor: descriptor) else { return nil }
        var result: [String: Bool] = [:]
        for record in records { result[record.name] = record.flags & 0x2 != 0 }
        return result
    }

    /// The generalization arguments of each parameterized existential in each field's type, by
    /// field name (for an enum: by case), as the compiler's field records spell them: after the
    /// reference to the existential's shape (0x0a unique, 0x0b not), up to its `Xj`
    /// (`<shape> q_ Xj`: one argument, the second generic parameter). An existential whose
    /// arguments hold a reference (a nominal type, another shape) is nil.
    ///
    /// - Parameter descriptor: a struct's, enum's or class's type descriptor in the target.
    /// - Returns: nil when the records cannot be read (none, or not in the target).
    public func existentialArguments(ofDescriptor descriptor: UInt64) -> [String: [String?]]? {
        guard let records = fieldRecords(ofDescriptor: descriptor) else { return nil }
        var result: [String: [String?]] = [:]
        for record in records {
            if let type = record.mangledTypeName {
                guard let arguments = existentialArguments(inMangledNameAt: type) else { return nil }
                result[record.name] = arguments
            } else {
                result[record.name] = []
            }
        }
        return result
    }

    /// One field record: its flags, its name, and where its mangled type name lies (nil: none).
    private struct FieldRecord {
        var flags: UInt32
        var name: String
        var mangledTypeName: UInt64?
    }

    /// The field records of the type descriptor at `descriptor`: `uint16 fieldRecordSize`,
    /// `uint32 numFields`, then the records (`uint32 flags`, `int32 mangledTypeName`,
    /// `int32 fieldName`; RemoteInspection/Records.h). Nil when they cannot be read (none, or
    /// not in the target).
    private func fieldRecords(ofDescriptor descriptor: UInt64) -> [FieldRecord]? {
        guard let offset = try? memory.read(Int32.self, at: descriptor &+ 16, what: "type descriptor fields"), offset != 0 else {
            return nil
        }
        let fields = UInt64(bitPattern: Int64(bitPattern: descriptor &+ 16) &+ Int64(offset))
        guard let recordSize = try? memory.read(UInt16.self, at: fields &+ 10, what: "field record size"), recordSize >= 12,
            let count = try? memory.read(UInt32.self, at: fields &+ 12, what: "field count"), count <= 1 << 16
        else { return nil }
        var records: [FieldRecord] = []
        var record = fields &+ 16
        for _ in 0..<count {
            guard let flags = try? memory.read(UInt32.self, at: record, what: "field record flags"),
                let typeOffset = try? memory.read(Int32.self, at: record &+ 4, what: "field record type"),
                let nameOffset = try? memory.read(Int32.self, at: record &+ 8, what: "field record name"),
                let name = memory.cString(at: UInt64(bitPattern: Int64(bitPattern: record &+ 8) &+ Int64(nameOffset)))
            else { return nil }
            let type = typeOffset == 0 ? nil : UInt64(bitPattern: Int64(bitPattern: record &+ 4) &+ Int64(typeOffset))
            records.append(FieldRecord(flags: flags, name: name, mangledTypeName: type))
            record &+= UInt64(recordSize)
        }
        return records
    }

    /// The generalization arguments of each existential shape reference in the mangled name at
    /// `address` (NUL-ended, at most 4096 bytes); `[nil]` when a shape's arguments hold a
    /// reference; nil when it cannot be read.
    private func existentialArguments(inMangledNameAt address: UInt64) -> [String?]? {
        // A name near the end of the image's readable bytes: a shorter read.
        guard let bytes = [4096, 256].lazy.compactMap({ try? self.memory.bytes(at: address, count: $0, what: "field type") }).first
        else { return nil }
        var found: [String?] = []
        // The arguments of the shape being read, from its reference to its `Xj`.
        var open: [UInt8]?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0:
                return open == nil ? found : nil
            case 0x01...0x17:
                guard open == nil else { return [nil] }
                if byte == 0x0a || byte == 0x0b { open = [] }
                index += 5
            case 0x18...0x1F:
                guard open == nil else { return [nil] }
                index += 9
            default:
                if var text = open {
                    text.append(byte)
                    open = text
                    if text.count >= 2, text.suffix(2).elementsEqual("Xj".utf8) {
                        found.append(String(decoding: text.dropLast(2), as: UTF8.self))
                        open = nil
                    }
                }
                index += 1
            }
        }
        return nil
    }
}

extension TargetMemory {
    /// The NUL-terminated string at `address` (a name: at most 256 bytes).
    func cString(at address: UInt64) -> String? {
        // A name near the end of the image's readable bytes: a shorter read.
        for count in [256, 32] {
            guard let read = try? self.bytes(at: address, count: count, what: "a name") else { continue }
            guard let end = read.firstIndex(of: 0), end > 0 else { return nil }
            return String(decoding: read[..<end], as: UTF8.self)
        }
        return nil
    }
}
