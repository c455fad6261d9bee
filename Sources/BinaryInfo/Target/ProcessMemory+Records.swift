#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension ProcessMemory {
    /// The most pieces one `process_vm_readv` takes (`IOV_MAX`).
    static let piecesPerCall = 1024

    /// Copies `size` bytes at each of `addresses` into `destination` (the `index`th at
    /// `index * size`), a thousand pieces per system call instead of one: a heap census checks
    /// millions of words that may be metadata, and a call per word would be most of its time.
    ///
    /// - Returns: for each address, whether all its bytes were read (false: some byte is not
    ///   mapped, and the piece's bytes in `destination` are not to be used).
    /// - Throws: ``BinaryInfoError/processExited(path:)``, ``BinaryInfoError/processAccessDenied(path:reason:)``.
    func fetchRecords(at addresses: [UInt64], size: Int, into destination: UnsafeMutableRawBufferPointer) throws(BinaryInfoError)
        -> [Bool]
    {
        precondition(destination.count >= addresses.count * size)
        var read = [Bool](repeating: false, count: addresses.count)
        guard size > 0, let base = destination.baseAddress, let readVector = Self.readVector else {
            for (index, address) in addresses.enumerated() {
                let piece = UnsafeMutableRawBufferPointer(rebasing: destination[index * size..<(index + 1) * size])
                read[index] = (try? fetch(into: piece, from: address, what: "memory")) != nil
            }
            return read
        }
        var local = [iovec](repeating: iovec(), count: Self.piecesPerCall)
        var remote = [iovec](repeating: iovec(), count: Self.piecesPerCall)
        var next = 0
        while next < addresses.count {
            // The kernel copies the pieces in order and stops at the first it cannot read whole.
            var pieces = 0
            while pieces < Self.piecesPerCall, next + pieces < addresses.count {
                let index = next + pieces
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
                for index in next..<next + whole { read[index] = true }
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
                let piece = UnsafeMutableRawBufferPointer(rebasing: destination[next * size..<(next + 1) * size])
                do {
                    try fetch(into: piece, from: addresses[next], what: "memory")
                    read[next] = true
                } catch {
                    switch error {
                    case .unmapped: break
                    default: throw error
                    }
                }
                next += 1
            }
        }
        return read
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
        if case .process(let memory, _) = source { return try memory.fetchRecords(at: addresses, size: size, into: destination) }
        var read = [Bool](repeating: false, count: addresses.count)
        for (index, address) in addresses.enumerated() {
            let piece = UnsafeMutableRawBufferPointer(rebasing: destination[index * size..<(index + 1) * size])
            do {
                try fetch(into: piece, from: address, what: "memory")
                read[index] = true
            } catch {
                switch error {
                case .unmapped, .outOfBounds: break
                default: throw error
                }
            }
        }
        return read
    }
}
