import BinaryInfo
import SystemPackage

/// The worker's target mode (``TargetWire``): it opens the target once, with the image map the
/// client sent (no memory map read, no file matched again), registers each Swift image's
/// reflection sections at their target addresses, and then answers batch after batch of queries
/// with what libswiftRemoteMirror reads from the target's memory through ``TargetMirrorMemory``,
/// until its standard input ends. The target is never written.
enum TargetWorker {
    /// Runs the target mode after its header line was read; returns the process exit status.
    static func run() -> Int32 {
        LoweringTrace.mark("worker", "target-started")
        var lines = [TargetWire.header]
        while let line = readLine(strippingNewline: true) {
            guard line.utf8.count <= LoweringWire.maximumLineLength, lines.count < 1 << 22 else {
                emit(TargetWire.header)
                emit(TargetReply.failed(.request("request too large")).encoded)
                return 2
            }
            lines.append(line)
            if line == TargetWire.openLine { break }
        }
        emit(TargetWire.header)
        let request: TargetRequest
        switch TargetRequest.decode(lines: lines) {
        case .success(let decoded): request = decoded
        case .failure(let error):
            emit(TargetReply.failed(.request("\(error)")).encoded)
            return 2
        }
        let context: RemoteMirrorContext
        let mirror: TargetMirrorMemory
        do throws(TypeLoweringError) {
            let memory: TargetMemory
            do {
                memory = try TargetMemory(request.target, imageMap: request.imageMap)
            } catch {
                throw .target(error)
            }
            mirror = try TargetMirrorMemory(
                memory: memory,
                toolchainConcurrencyLibrary: LoweringConfiguration.concurrencyLibrary(besideRemoteMirror: request.libraryPath))
            context = try RemoteMirrorContext(library: try RemoteMirrorLibrary(path: request.libraryPath), target: mirror)
        } catch {
            emit(TargetReply.failed(TargetWorkerFailure(error, map: request.imageMap)).encoded)
            return 3
        }
        emit(TargetReply.ready(swiftImages: mirror.reflectionSections.count).encoded)
        // The process ends after the last batch: the context is left to the exit.
        _ = Unmanaged.passRetained(context)
        var answerer = TargetBatchAnswerer(request: request, context: context, mirror: mirror)
        while true {
            var batch: [String] = []
            while let line = readLine(strippingNewline: true) {
                guard line.utf8.count <= LoweringWire.maximumLineLength, batch.count < 1 << 22 else {
                    emit(TargetReply.failed(.request("batch too large")).encoded)
                    return 2
                }
                batch.append(line)
                if line == "end" { break }
            }
            // The client closed the session between batches: nothing is owed.
            if batch.isEmpty { return 0 }
            guard batch.last == "end" else { return 2 }
            let queries: [TargetRequest.Query]
            switch TargetRequest.decodeBatch(lines: batch) {
            case .success(let decoded): queries = decoded
            case .failure(let error):
                emit(TargetReply.failed(.request("\(error)")).encoded)
                return 2
            }
            LoweringTrace.mark("worker", "target-batch-read")
            if let (failure, status) = answerer.answer(queries) {
                emit(TargetReply.failed(failure).encoded)
                return status
            }
            emit(TargetReply.done.encoded)
        }
    }

    static func emit(_ line: String) {
        _ = try? FileDescriptor.standardOutput.writeAll((line + "\n").utf8)
    }
}

/// Answers the queries of each batch over one opened target, keeping what it learns once (the
/// library's verified concurrency entry points) across batches.
struct TargetBatchAnswerer {
    let request: TargetRequest
    let context: RemoteMirrorContext
    let mirror: TargetMirrorMemory
    private var concurrency: Result<RemoteMirrorConcurrency, MirrorError>?

    init(request: TargetRequest, context: RemoteMirrorContext, mirror: TargetMirrorMemory) {
        self.request = request
        self.context = context
        self.mirror = mirror
    }

    /// Answers `queries`, one reply record each; returns the failure that ends the worker (and
    /// its exit status), or nil when every query was answered.
    mutating func answer(_ queries: [TargetRequest.Query]) -> (TargetWorkerFailure, Int32)? {
        // A batch reads the process as it is now, not as an earlier batch saw it.
        mirror.forgetReads()
        for query in queries {
            switch query {
            case .task, .actor:
                if concurrency == nil { concurrency = RemoteMirrorConcurrency.verified(context.library, path: request.libraryPath) }
                switch concurrency {
                case .success(let functions)?: answer(query, functions: functions)
                case .failure(let error)?: return (.unverified(error.text), 5)
                case nil: break
                }
            case .threads(let image):
                switch TargetThreadList.read(mirror.memory, runtimeImage: image, searchDirectories: request.imageSearchPaths) {
                case .success(let list):
                    for thread in list.threads { emit(.thread(thread)) }
                    emit(.threads(truncated: list.isTruncated, reason: ""))
                case .failure(let error): emit(.threads(truncated: nil, reason: error.text))
                }
            case .name(let metadata):
                let mangling = context.typeRef(metadata: metadata).flatMap { context.mangledName(of: $0) }
                emit(.name(metadata, mangling: mangling))
            case .fields(let metadata):
                let info = context.info(ofMetadata: metadata)
                let count = min(info?.fieldCount ?? 0, LoweringWire.maximumChildren)
                for index in 0..<count {
                    guard let child = context.child(ofMetadata: metadata, at: index) else { continue }
                    emit(.field(metadata, record(of: child)))
                }
                emit(.fields(metadata, count: info == nil ? nil : count))
            case .layout(let mangling): layout(mangling)
            case .enumCase(let mangling, let address):
                let typeRef = context.typeRef(mangledName: mangling)
                let index = typeRef.flatMap { context.caseIndex(ofValueAt: address, typeRef: $0) }
                let name = typeRef.flatMap { typeRef in index.flatMap { context.child(of: typeRef, at: $0)?.name } }
                emit(.enumCase(mangling, address, index: name == nil ? nil : index, name: name))
            case .generics: generics()
            case .arguments(let subject):
                let typeRef: UInt64?
                switch subject {
                case .mangling(let mangling): typeRef = context.typeRef(mangledName: mangling)
                case .metadata(let metadata): typeRef = context.typeRef(metadata: metadata)
                }
                let found = typeRef.map { typeRef in
                    LibraryGenericArguments(
                        type: context.mangledName(of: typeRef),
                        arguments: context.genericArguments(of: typeRef).map { $0.flatMap(context.mangledName(of:)) })
                }
                emit(.arguments(subject, found))
            }
            if let lost = mirror.targetLost { return (TargetWorkerFailure(lost, map: request.imageMap), 4) }
        }
        return nil
    }

    private func layout(_ mangling: String) {
        guard let typeRef = context.typeRef(mangledName: mangling), let info = context.info(of: typeRef) else {
            emit(.layout(mangling, nil))
            return
        }
        let count = min(info.fieldCount, LoweringWire.maximumChildren)
        var children = 0
        for index in 0..<count {
            guard let child = context.child(of: typeRef, at: index) else { break }
            emit(.child(mangling, record(of: child)))
            children += 1
        }
        let layout = TargetTypeLayout(
            kind: info.kind, size: info.size, alignment: info.alignment, stride: info.stride, childCount: children)
        emit(.layout(mangling, children == count ? layout : nil))
    }

    private func generics() {
        guard let allocations = RemoteMirrorAllocations(context.library) else {
            emit(.generics(.failure(TargetListingUnavailable(reason: "this libswiftRemoteMirror cannot read metadata allocations"))))
            return
        }
        switch allocations.genericMetadata(in: context, target: mirror) {
        case .success(let listing):
            for address in listing.metadata {
                let mangling = context.typeRef(metadata: address).flatMap { context.mangledName(of: $0) }
                emit(.name(address, mangling: mangling))
            }
            emit(.generics(.success(GenericsListing(count: listing.metadata.count, stops: listing.stops))))
        case .failure(let error):
            emit(.generics(.failure(error)))
        }
    }

    /// Answers a task or actor query.
    private func answer(_ query: TargetRequest.Query, functions: RemoteMirrorConcurrency) {
        switch query {
        case .task(let address):
            switch context.taskInfo(at: address, using: functions) {
            case .success(let info): emit(.task(address, info))
            case .failure(let error): emit(.unread(isTask: true, address, reason: error.text))
            }
        case .actor(let address):
            switch context.actorInfo(at: address, using: functions) {
            case .success(let info): emit(.actor(address, info))
            case .failure(let error): emit(.unread(isTask: false, address, reason: error.text))
            }
        default: break
        }
    }

    /// A child (field, element, case) as the wire states it, its type by mangling.
    private func record(of child: LoweredChild) -> TargetFieldRecord {
        TargetFieldRecord(
            offset: child.offset, kind: child.kind == .unknown ? nil : child.kind,
            mangledType: child.typeRef.flatMap { context.mangledName(of: $0) }, name: child.name)
    }

    private func emit(_ reply: TargetReply) { TargetWorker.emit(reply.encoded) }
}
