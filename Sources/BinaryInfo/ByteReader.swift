/// Something that can copy bytes out of a virtual address range, bounds-checked: the one reader
/// protocol of files, running processes and core files.
///
/// This is the single required fetch; every typed read (integers, relative pointers,
/// C strings) is derived from it in the extension below, so a new storage needs one method.
/// Conformers: an image laid out from its file (internal), a running process
/// (``ProcessMemory``), a core file (``CoreFile``) and a target whose core left bytes out
/// (``TargetMemory``). The metadata decoders and the reflection library's read callbacks read
/// through it and do not know which they read.
public protocol ByteReader {
    /// What the bytes come from (a file's path, `process 1234`), for errors.
    var path: String { get }

    /// Copies `destination.count` bytes starting at `address`.
    ///
    /// - Throws: ``BinaryInfoError/outOfBounds(path:what:address:length:)`` naming `what` when any byte
    ///   of the range is not backed by the image.
    func fetch(into destination: UnsafeMutableRawBufferPointer, from address: UInt64, what: @autoclosure () -> String)
        throws(BinaryInfoError)
}

/// Upper bound on a single string read from an image: no real Swift name comes near it,
/// and it keeps a missing terminator from turning into a scan of the whole file.
let maximumStringLength = 64 * 1024

extension ByteReader {
    /// Reads a little-endian integer.
    public func read<T: FixedWidthInteger>(_ type: T.Type, at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> T
    {
        var value = T.zero
        try withUnsafeMutableBytes(of: &value) { buffer throws(BinaryInfoError) in
            try fetch(into: buffer, from: address, what: what())
        }
        return T(littleEndian: value)
    }

    /// Copies `count` bytes at `address` into a new array.
    public func bytes(at address: UInt64, count: Int, what: @autoclosure () -> String) throws(BinaryInfoError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        try fetch(into: buffer, from: address, what: what())
        return Array(buffer)
    }

    /// Resolves a 32-bit self-relative offset stored at `address`: `nil` when the offset is zero
    /// (the ABI's null), otherwise `address + offset`, overflow-checked.
    public func relativeTarget(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> UInt64? {
        let offset = try read(Int32.self, at: address, what: what())
        return try apply(offset: Int64(offset), to: address, what: what())
    }

    /// `base + offset` as an address, or nil for a zero offset.
    public func apply(offset: Int64, to base: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> UInt64? {
        if offset == 0 { return nil }
        let magnitude = offset.magnitude
        let (result, overflow) = offset < 0 ? base.subtractingReportingOverflow(magnitude) : base.addingReportingOverflow(magnitude)
        guard !overflow else {
            throw BinaryInfoError.malformedRecord(
                path: path, what: what(), address: base, detail: "relative offset \(offset) leaves the address space")
        }
        return result
    }

    /// Reads a NUL-terminated UTF-8 string (at most ``maximumStringLength`` bytes).
    public func cString(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> String {
        try byteWiseCString(at: address, what: what())
    }

    /// ``cString(at:what:)`` read a byte at a time, each byte bounds-checked on its own: a string
    /// may run from one section into the next.
    public func byteWiseCString(at address: UInt64, what: @autoclosure () -> String) throws(BinaryInfoError) -> String {
        var bytes: [UInt8] = []
        var cursor = address
        while true {
            let byte = try read(UInt8.self, at: cursor, what: what())
            if byte == 0 { break }
            bytes.append(byte)
            guard bytes.count < maximumStringLength else {
                throw BinaryInfoError.malformedRecord(
                    path: path, what: what(), address: address, detail: "string has no terminator within \(maximumStringLength) bytes")
            }
            cursor &+= 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
