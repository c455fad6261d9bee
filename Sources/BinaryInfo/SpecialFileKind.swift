/// What a path names when it is not a regular file: what
/// ``BinaryInfoError/notRegularFile(path:kind:)`` refuses.
public enum SpecialFileKind: Sendable, Hashable, CustomStringConvertible {
    case fifo
    case characterDevice
    case blockDevice
    case socket
    /// A type `fstat` reports that none of the above is.
    case other

    /// The kind with its article, as an error states it: `a FIFO (named pipe)`.
    public var description: String {
        switch self {
        case .fifo: return "a FIFO (named pipe)"
        case .characterDevice: return "a character device"
        case .blockDevice: return "a block device"
        case .socket: return "a socket"
        case .other: return "a special file"
        }
    }
}
