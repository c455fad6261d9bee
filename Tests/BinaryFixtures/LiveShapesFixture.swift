import Foundation

/// What `Fixtures/LiveShapes` keeps alive, as it states it: each object's address and the
/// runtime's `String(reflecting:)` of its type.
public struct LiveShapesReport: Decodable, Sendable {
    public struct Object: Decodable, Sendable {
        public var address: String
        public var type: String
    }

    public var pid: Int32
    /// How many `ListNode`s the list starting at ``list`` has.
    public var listLength: Int
    /// `String(reflecting:)` of `Router.responder`'s declared type and of `Migrations.models`'.
    public var responderFieldType: String
    public var modelsFieldType: String
    /// `String(reflecting:)` of `Metatypes.existential`'s type (`any Schema.Type`) and of
    /// `Metatypes.protocolMetatype`'s (`(any Schema).Type`).
    public var existentialMetatypeFieldType: String
    public var protocolMetatypeFieldType: String
    /// `String(reflecting:)` of `EndpointResponders.methods`' declared type (a dictionary of a
    /// parameterized existential of the struct's parameter), and of the class of the dictionary's
    /// storage object in `endpoints.responders.methods`.
    public var methodsFieldType: String
    public var methodsStorageType: String
    /// The private actor `Vault`, as the runtime names it.
    public var vaultType: String
    /// One array of class elements the program holds: its storage object, its count, and the
    /// class its elements have in common (nil: none, or no elements).
    public struct ClassArray: Decodable, Sendable {
        public var storage: String
        public var count: Int
        public var elementType: String?
    }
    /// Every array of class elements it holds (`book.orders`, the shelves and their arrays).
    public var classArrays: [ClassArray]
    /// The private class `Secret`, as the runtime names it, and its object.
    public var secretType: String
    public var secretAddress: String
    public var router: Object
    public var migrations: Object
    public var fields: Object
    public var optionals: Object
    public var box: Object
    public var book: Object
    /// `session.handler.session === session`: a two-object cycle.
    public var session: Object
    public var handler: Object
    public var list: Object
    public var keeper: Object
    /// An existential metatype beside a protocol metatype.
    public var metatypes: Object
    /// A generic struct's instantiation (`EndpointResponders<BasicContext>`) in a class's field.
    public var endpoints: Object
}

/// A running LiveShapes: a SwiftPM release build holding one object of each shape that live
/// reading must name and read truly (existentials, metatypes, indirect enums, nested optionals,
/// generic classes, arrays of classes, a cycle, a list, a private class).
public final class LiveShapesFixture {
    private let process: LiveFixtureProcess<LiveShapesReport>
    public var processID: Int32 { process.processID }
    public let report: LiveShapesReport

    /// - Parameter stripped: run a copy without symbol tables (``SwiftPMFixture/strippedProduct(package:linking:)``).
    public init(_ linking: FixtureLinking = .dynamic, stripped: Bool = false) throws {
        let executable =
            stripped
            ? try SwiftPMFixture.strippedProduct(package: "LiveShapes", linking: linking)
            : try SwiftPMFixture.product(package: "LiveShapes", linking: linking)
        process = try LiveFixtureProcess(executable: executable)
        report = try process.readReport()
    }

    public func finish() { process.finish() }
}
