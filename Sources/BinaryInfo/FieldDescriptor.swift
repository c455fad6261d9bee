/// One record of a field descriptor (`FieldRecord` in RemoteInspection/Records.h): a stored
/// property of a struct or class, or a case of an enum.
struct FieldRecord {
    let name: String
    /// The resolved mangling of the field's type (nil for a payload-less enum case, or when
    /// the type holds a reference the reader cannot spell).
    let mangledType: MangledName?
    let hasType: Bool
    let isIndirectCase: Bool
    let isVar: Bool
}

/// A field descriptor (`swift5_fieldmd`): `int32 mangledTypeName`, `int32 superclass`,
/// `uint16 kind`, `uint16 fieldRecordSize`, `uint32 numFields`, then the records
/// (`uint32 flags`, `int32 mangledTypeName`, `int32 fieldName`).
struct FieldDescriptor {
    let records: [FieldRecord]
}

extension SwiftImage {
    /// Reads the field descriptor at `address`.
    ///
    /// - Throws: ``BinaryInfoError`` when the record size is too small or the records run past the image.
    func fieldDescriptor(at address: UInt64) throws(BinaryInfoError) -> FieldDescriptor {
        let recordSize = try space.read(UInt16.self, at: address &+ 10, what: "field record size")
        let count = try space.read(UInt32.self, at: address &+ 12, what: "field count")
        guard recordSize >= 12 else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: "field descriptor", address: address,
                detail: "record size \(recordSize) is below the 12 bytes of a field record")
        }
        // The header and every record must lie inside one section: check before allocating for them.
        let (span, overflow) = UInt64(count).multipliedReportingOverflow(by: UInt64(recordSize))
        guard let region = space.region(containing: address) else {
            throw BinaryInfoError.outOfBounds(path: path, what: "field descriptor", address: address, length: 16)
        }
        let remaining = region.size - (address - region.start)
        guard !overflow, count <= 1 << 20, span <= remaining, remaining - span >= 16 else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: "field descriptor", address: address,
                detail: "\(count) records of \(recordSize) bytes run past the end of the section")
        }
        var records: [FieldRecord] = []
        records.reserveCapacity(Int(count))
        var cursor = address &+ 16
        for _ in 0..<count {
            let flags = try space.read(UInt32.self, at: cursor, what: "field record flags")
            let typeOffset = try space.read(Int32.self, at: cursor &+ 4, what: "field type pointer")
            let mangled = typeOffset == 0 ? nil : try resolvedMangledName(at: cursor &+ 4, what: "field type")
            let name = try relativeString(at: cursor &+ 8, what: "field name") ?? ""
            records.append(
                FieldRecord(
                    name: name, mangledType: mangled, hasType: typeOffset != 0,
                    isIndirectCase: flags & 0x1 != 0, isVar: flags & 0x2 != 0
                ))
            cursor &+= UInt64(recordSize)
        }
        return FieldDescriptor(records: records)
    }
}
