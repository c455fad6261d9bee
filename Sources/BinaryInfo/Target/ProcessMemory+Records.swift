#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ProcessMemory {
    /// The most pieces one `process_vm_readv` takes (`IOV_MAX`).
    static let piecesPerCall = 1024

    /// Copies `size` bytes at each of `addresses` into `destination` (the `index`th at
    /// `index * size`), with few system calls: pieces that lie close together (metadata words
    /// sorted, or a weak reference's side tables pointing at objects made one after another) in
    /// one read of the memory they span, the others a thousand to a call. A heap census judges
    /// millions of words that may be metadata, and a call, or a page walk, per word would be most
    /// of its time.
    ///
    /// - Returns: for each address, whether all its bytes were read (false: some byte is not
    ///   mapped, and the piece's bytes in `destination` are not to be used).
    /// - Throws: ``BinaryInfoError/processExited(path:)``, ``BinaryInfoError/processAccessDenied(path:reason:)``.
    func fetchRecords(at addresses: [UInt64], size: Int, into destination: UnsafeMutableRawBufferPointer) throws(BinaryInfoError)
        -> [Bool]
    {
        precondition(destination.count >= addresses.count * size)
        var read = [Bool](repeating: false, count: addresses.count)
        guard size > 0, size <= Self.spanLimit, destination.baseAddress != nil else { return read }
        let order = addresses.indices.sorted { addresses[$0] < addresses[$1] }
        var apart: [Int] = []
        let span = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.spanLimit, alignment: 8)
        defer { span.deallocate() }
        var first = 0
        while first < order.count {
            let start = addresses[order[first]]
            guard !start.addingReportingOverflow(UInt64(Self.spanLimit)).overflow else {
                apart += order[first...]
                break
            }
            var end = start + UInt64(size)
            var last = first + 1
            while last < order.count, addresses[order[last]] <= end + Self.gapLimit,
                addresses[order[last]] + UInt64(size) - start <= UInt64(Self.spanLimit)
            {
                end = max(end, addresses[order[last]] + UInt64(size))
                last += 1
            }
            let spanned = UnsafeMutableRawBufferPointer(rebasing: span[0..<Int(end - start)])
            if last - first > 1, (try? readable(into: spanned, from: start)) == true {
                for index in order[first..<last] {
                    let offset = Int(addresses[index] - start)
                    UnsafeMutableRawBufferPointer(rebasing: destination[index * size..<(index + 1) * size])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: spanned[offset..<offset + size]))
                    read[index] = true
                }
            } else {
                apart += order[first..<last]
            }
            first = last
        }
        try fetchRecords(apart, at: addresses, size: size, into: destination, read: &read)
        return read
    }

    /// The most bytes one read spans for pieces close together.
    static let spanLimit = 64 << 10
    /// The most bytes between two pieces read in one span.
    static let gapLimit: UInt64 = 256

    /// Whether all of `destination.count` bytes at `address` were read (false: some are not mapped).
    private func readable(into destination: UnsafeMutableRawBufferPointer, from address: UInt64) throws(BinaryInfoError) -> Bool {
        do {
            try fetch(into: destination, from: address, what: "memory")
            return true
        } catch {
            switch error {
            case .unmapped: return false
            default: throw error
            }
        }
    }

    /// The pieces `indices` of `addresses`, a thousand to a system call.
    private func fetchRecords(
        _ indices: [Int], at addresses: [UInt64], size: Int, into destination: UnsafeMutableRawBufferPointer, read: inout [Bool]
    ) throws(BinaryInfoError) {
        guard let base = destination.baseAddress, let readVector = Self.readVector else {
            for index in indices {
                read[index] = try readable(
                    into: UnsafeMutableRawBufferPointer(rebasing: destination[index * size..<(index + 1) * size]), from: addresses[index])
            }
            return
        }
        var local = [iovec](repeating: iovec(), count: Self.piecesPerCall)
        var remote = [iovec](repeating: iovec(), count: Self.piecesPerCall)
        var next = 0
        while next < indices.count {
            // The kernel copies the pieces in order and stops at the first it cannot read whole.
            var pieces = 0
            while pieces < Self.piecesPerCall, next + pieces < indices.count {
                let index = indices[next + pieces]
                let address = addresses[index]
                guard !address.addingReportingOverflow(UInt64(size)).overflow,
                    let remoteBase = UnsafeMutableRawPointer(bitPattern: UInt(address))
                else { break }
                local[pieces] = iovec(iov_base: base + index * size, iov_len: size)
                remote[pieces] = iovec(iov_base: remoteBase, iov_len: size)
                pieces += 1
            }
            guard pieces > 0 else {
                // An address whose range wraps: never mapped.
                next += 1
                continue
            }
            let count = readVector(processID, local, UInt(pieces), remote, UInt(pieces), 0)
            if count >= 0 {
                let whole = count / size
                for offset in 0..<whole { read[indices[next + offset]] = true }
                // The piece after the whole ones did not read whole (unless all did).
                next += whole < pieces ? whole + 1 : whole
                continue
            }
            switch errno {
            case EINTR: continue
            case ESRCH: throw BinaryInfoError.processExited(path: path)
            case EPERM, EACCES:
                throw BinaryInfoError.processAccessDenied(path: path, reason: ProcessAccess.denialReason(processID: processID))
            case EFAULT:
                // The first piece is not mapped.
                next += 1
            default:
                // Anything else: the first piece alone, with the single read's errors.
                let index = indices[next]
                read[index] = try readable(
                    into: UnsafeMutableRawBufferPointer(rebasing: destination[index * size..<(index + 1) * size]), from: addresses[index])
                next += 1
            }
        }
    }
}

extension TargetMemory {
    /// Copies `size` bytes at each of `addresses` into `destination` (the `index`th at
    /// `index * size`): for a process, many pieces per system call
    /// (``ProcessMemory/fetchRecords(at:size:into:)``).
    ///
    /// - Returns: for each address, whether all its bytes were read.
    /// - Throws: for a process ``BinaryInfoError/processExited(path:)`` or
    ///   ``BinaryInfoError/processAccessDenied(path:reason:)``; never for memory that is not mapped.
    func fetchRecords(at addresses: [UInt64], size: Int, into destination: UnsafeMutableRawBufferPointer) throws(BinaryInfoError)
        -> [Bool]
    {
        try source.fetchRecords(at: addresses, size: size, into: destination, images: images)
    }
}
