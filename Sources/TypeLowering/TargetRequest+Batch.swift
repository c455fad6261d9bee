/// The batches of a session: after the preamble, the client sends queries and `end`, again and
/// again, and the worker answers each batch through `done` (``TargetWire``).
extension TargetRequest {
    /// One batch of queries as the worker reads it, through `end`.
    static func encodedBatch(_ queries: [Query]) -> String {
        var lines: [String] = []
        lines.reserveCapacity(queries.count + 1)
        for query in queries {
            switch query {
            case .name(let address): lines.append("name " + TargetWire.hex(address))
            case .fields(let address): lines.append("fields " + TargetWire.hex(address))
            case .layout(let mangling): lines.append("layout " + mangling)
            case .enumCase(let mangling, let address): lines.append("case \(mangling) \(TargetWire.hex(address))")
            case .generics: lines.append("generics")
            case .arguments(let subject): lines.append("arguments " + subject.wireText)
            case .task(let address): lines.append("task " + TargetWire.hex(address))
            case .actor(let address): lines.append("actor " + TargetWire.hex(address))
            case .threads(let image): lines.append("threads " + TargetWire.hex(image))
            }
        }
        return (lines + ["end"]).joined(separator: "\n") + "\n"
    }

    /// Parses one batch (its lines through `end`).
    static func decodeBatch(lines: [String]) -> Result<[Query], TypeLoweringError> {
        var queries: [Query] = []
        queries.reserveCapacity(lines.count)
        for (number, line) in lines.enumerated() {
            let (keyword, rest) = LoweringWire.split(line)
            switch keyword {
            case "name", "fields":
                guard let address = TargetWire.address(rest) else {
                    return .failure(.protocolViolation(detail: "batch line \(number + 1): '\(rest.prefix(40))' is not an address"))
                }
                queries.append(keyword == "name" ? .name(address) : .fields(address))
            case "task", "actor", "threads":
                guard let address = TargetWire.address(rest) else {
                    return .failure(.protocolViolation(detail: "batch line \(number + 1): '\(rest.prefix(40))' is not an address"))
                }
                queries.append(keyword == "task" ? .task(address) : keyword == "actor" ? .actor(address) : .threads(address))
            case "layout" where TargetWire.isMangling(rest):
                queries.append(.layout(rest))
            case "case":
                let parts = rest.split(separator: " ")
                guard parts.count == 2, TargetWire.isMangling(parts[0]), let address = TargetWire.address(parts[1]) else {
                    return .failure(
                        .protocolViolation(detail: "batch line \(number + 1): '\(rest.prefix(40))' is not a mangling and an address"))
                }
                queries.append(.enumCase(String(parts[0]), address))
            case "generics" where rest.isEmpty: queries.append(.generics)
            case "arguments":
                guard let subject = TypeSubject(wireText: rest) else {
                    return .failure(
                        .protocolViolation(detail: "batch line \(number + 1): '\(rest.prefix(40))' is not a mangling or an address"))
                }
                queries.append(.arguments(subject))
            case "end" where rest.isEmpty && number == lines.count - 1: break
            default: return .failure(.protocolViolation(detail: "batch line \(number + 1): unknown query '\(keyword.prefix(40))'"))
            }
        }
        guard lines.last == "end" else { return .failure(.protocolViolation(detail: "batch lacks 'end'")) }
        return .success(queries)
    }
}
