import Foundation
import ModelMapper

// ModelMapper vs Foundation's JSONDecoder/JSONEncoder + Codable vs a hand-written
// decoder/encoder on the mapper's own reader and writer, side by side in one run.
//
//   swift run -c release --package-path Benchmarks ModelMapperBenchmark [--batches N] [--user-iterations N] [--feed-iterations N]
//
// Batches of the three are interleaved (A B C, A B C, ...) so that the machine's noise
// falls on all of them alike; medians and ratios are printed as a Markdown table.

struct Options {
    var batches = 15
    var userIterations = 10_000
    var feedIterations = 20
    /// Profiling aid: run only the case named exactly this ("section: implementation"), or
    /// when no case is, the cases whose name contains it.
    var only: String?
    var dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data")

    init(_ arguments: [String]) {
        var i = 1
        while i < arguments.count {
            let value = i + 1 < arguments.count ? arguments[i + 1] : ""
            switch arguments[i] {
            case "--batches": batches = Int(value) ?? batches
            case "--user-iterations": userIterations = Int(value) ?? userIterations
            case "--feed-iterations": feedIterations = Int(value) ?? feedIterations
            case "--data": dataDirectory = URL(fileURLWithPath: value)
            case "--only": only = value
            default:
                print("unknown argument \(arguments[i]); see the comment at the top of main.swift")
                exit(2)
            }
            i += 2
        }
    }
}

/// Per-operation timings of one implementation, one value per batch, sorted.
struct Timing {
    let name: String
    let nanosecondsPerOperation: [Double]

    var median: Double { percentile(50) }

    func percentile(_ p: Double) -> Double {
        guard !nanosecondsPerOperation.isEmpty else { return .nan }
        return nanosecondsPerOperation[Int((Double(nanosecondsPerOperation.count - 1) * p / 100).rounded())]
    }
}

/// Keeps a result alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func format(_ ns: Double) -> String {
    if ns < 1_000 { return String(format: "%.1f ns", ns) }
    if ns < 1_000_000 { return String(format: "%.2f µs", ns / 1_000) }
    return String(format: "%.2f ms", ns / 1_000_000)
}

struct Case {
    let name: String
    let body: () throws -> Any
}

/// Runs each case `iterations` times per batch, the cases interleaved, after one warm-up round.
func interleaved(_ section: String, _ cases: [Case], iterations: Int, batches: Int) throws -> [Timing] {
    if let only = options.only {
        // Exact first: "userDecode: ModelMapper.decode" is also part of the keys-sorted case's name.
        let exact = cases.contains { "\(section): \($0.name)" == only }
        for item in cases where exact ? "\(section): \(item.name)" == only : "\(section): \(item.name)".contains(only) {
            for _ in 0..<(iterations * batches) { blackHole(try item.body()) }
        }
        return cases.map { Timing(name: $0.name, nanosecondsPerOperation: []) }
    }
    var samples = [[Double]](repeating: [], count: cases.count)
    let clock = ContinuousClock()
    for round in 0...batches {
        for (index, item) in cases.enumerated() {
            let start = clock.now
            for _ in 0..<iterations { blackHole(try item.body()) }
            let elapsed = start.duration(to: clock.now)
            let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            if round > 0 { samples[index].append(ns / Double(iterations)) }
        }
    }
    return zip(cases, samples).map { Timing(name: $0.name, nanosecondsPerOperation: $1.sorted()) }
}

func table(_ title: String, _ timings: [Timing]) {
    let (mapper, foundation, floor) = (timings[0], timings[1], timings[2])
    print("### \(title)")
    print("| implementation | median | p10 | p90 |")
    print("| --- | ---: | ---: | ---: |")
    for m in timings {
        print("| \(m.name) | \(format(m.median)) | \(format(m.percentile(10))) | \(format(m.percentile(90))) |")
    }
    let speedup = foundation.median / mapper.median
    let overFloor = mapper.median / floor.median
    print("")
    print(String(format: "- Foundation / ModelMapper: **%.2fx** (aim >= 2x: %@)", speedup, speedup >= 2 ? "met" : "not met"))
    print(String(format: "- ModelMapper / hand-written: **%.2fx** (aim <= 2x: %@)", overFloor, overFloor <= 2 ? "met" : "not met"))
    for extra in timings.dropFirst(3) {
        print(
            String(
                format: "- %@ / hand-written: %.2fx, / Foundation+Codable: %.2fx", extra.name,
                extra.median / floor.median, extra.median / foundation.median))
    }
    print("")
}

let options = Options(CommandLine.arguments)
let userData = try Data(contentsOf: options.dataDirectory.appendingPathComponent("github-user.json"))
let feedData = try Data(contentsOf: options.dataDirectory.appendingPathComponent("repo-feed.json"))

let mapper = ModelMapper(options: MappingOptions())
// The same mapper with every field access through PropertyInfo.set/get (TypeInfo's primitive).
let viaPropertyInfo = ModelMapper(options: MappingOptions(fieldAccess: .propertyInfo))
let decoder = JSONDecoder()
decoder.dateDecodingStrategy = .iso8601
let encoder = JSONEncoder()
encoder.dateEncodingStrategy = .iso8601

// The three must agree before any timing counts.
let mUser = try mapper.decode(MUser.self, from: userData)
let hUser = try HandWritten.decodeUser(userData)
let cUser = try decoder.decode(CUser.self, from: userData)
let mFeed = try mapper.decode(MFeed.self, from: feedData)
let hFeed = try HandWritten.decodeFeed(feedData)
let cFeed = try decoder.decode(CFeed.self, from: feedData)
func check(_ condition: Bool, _ what: String) {
    if !condition {
        print("error: implementations disagree on \(what)")
        exit(1)
    }
}
check(try mapper.encode(mUser) == HandWritten.encodeUser(hUser), "the user")
check(cUser.login == mUser.login && cUser.updatedAt == mUser.updatedAt && cUser.bio == mUser.bio, "the user (Codable)")
check(try mapper.encode(mFeed) == HandWritten.encodeFeed(hFeed), "the feed")
check(
    cFeed.items.count == mFeed.items.count && cFeed.items.last?.owner.login == mFeed.items.last?.owner.login
        && cFeed.items.map(\.license?.spdxId) == mFeed.items.map(\.license?.spdxId), "the feed (Codable)")

// For the JSONSerialization-only rows: the road through [String: Any] that the mapper avoids.
let userObject = try JSONSerialization.jsonObject(with: userData)
let feedObject = try JSONSerialization.jsonObject(with: feedData)
// The user with its keys sorted: the plan's guess that keys come in declaration order fails.
let sortedUserData = try JSONSerialization.data(withJSONObject: userObject, options: [.sortedKeys, .withoutEscapingSlashes])
check(try mapper.decode(MUser.self, from: sortedUserData).updatedAt == mUser.updatedAt, "the sorted user")

print(
    "ModelMapper benchmark: \(options.batches) interleaved batches; user x\(options.userIterations), feed x\(options.feedIterations) per batch"
)
print("inputs: github-user.json (\(userData.count) bytes), repo-feed.json (\(feedData.count) bytes, \(mFeed.items.count) repositories)")
print("")

let userDecode = try interleaved(
    "userDecode",
    [
        Case(name: "ModelMapper.decode") { try mapper.decode(MUser.self, from: userData) },
        Case(name: "JSONDecoder + Codable") { try decoder.decode(CUser.self, from: userData) },
        Case(name: "hand-written") { try HandWritten.decodeUser(userData) },
        Case(name: "ModelMapper, fields via PropertyInfo") { try viaPropertyInfo.decode(MUser.self, from: userData) },
        Case(name: "JSONSerialization.jsonObject only") { try JSONSerialization.jsonObject(with: userData) },
        Case(name: "ModelMapper.decode, keys sorted (order unpredicted)") { try mapper.decode(MUser.self, from: sortedUserData) },
    ], iterations: options.userIterations, batches: options.batches)
table("GitHub user: decode", userDecode)

let userEncode = try interleaved(
    "userEncode",
    [
        Case(name: "ModelMapper.encode") { try mapper.encode(mUser) },
        Case(name: "JSONEncoder + Codable") { try encoder.encode(cUser) },
        Case(name: "hand-written") { HandWritten.encodeUser(hUser) },
        Case(name: "ModelMapper, fields via PropertyInfo") { try viaPropertyInfo.encode(mUser) },
        Case(name: "JSONSerialization.data only") { try JSONSerialization.data(withJSONObject: userObject) },
    ], iterations: options.userIterations, batches: options.batches)
table("GitHub user: encode", userEncode)

let feedDecode = try interleaved(
    "feedDecode",
    [
        Case(name: "ModelMapper.decode") { try mapper.decode(MFeed.self, from: feedData) },
        Case(name: "JSONDecoder + Codable") { try decoder.decode(CFeed.self, from: feedData) },
        Case(name: "hand-written") { try HandWritten.decodeFeed(feedData) },
        Case(name: "ModelMapper, fields via PropertyInfo") { try viaPropertyInfo.decode(MFeed.self, from: feedData) },
        Case(name: "JSONSerialization.jsonObject only") { try JSONSerialization.jsonObject(with: feedData) },
    ], iterations: options.feedIterations, batches: options.batches)
table("Repository feed (300 repos): decode", feedDecode)

let feedEncode = try interleaved(
    "feedEncode",
    [
        Case(name: "ModelMapper.encode") { try mapper.encode(mFeed) },
        Case(name: "JSONEncoder + Codable") { try encoder.encode(cFeed) },
        Case(name: "hand-written") { HandWritten.encodeFeed(hFeed) },
        Case(name: "ModelMapper, fields via PropertyInfo") { try viaPropertyInfo.encode(mFeed) },
        Case(name: "JSONSerialization.data only") { try JSONSerialization.data(withJSONObject: feedObject) },
    ], iterations: options.feedIterations, batches: options.batches)
table("Repository feed (300 repos): encode", feedEncode)
