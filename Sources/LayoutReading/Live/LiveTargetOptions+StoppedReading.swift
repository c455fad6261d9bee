import BinaryInfo
import TypeLayout
import TypeLowering

extension LiveTargetOptions {
    /// Runs `body` on the target held at one instant, for the readings whose answer needs one
    /// consistent moment (`leaks`, `retainers`, `heap --retained`): a process is always stopped,
    /// whatever ``pauses`` says, and a core or a process that changed under the reading is read
    /// again (``LiveHeapReader/readingAgainWhileChanging(_:pause:_:)``).
    ///
    /// The target is opened before the stop: starting the worker and reading the images'
    /// metadata need no stopped process, and would lengthen the stop several times over.
    ///
    /// - Parameters:
    ///   - beforeStop: judges the opened target before it is stopped (a target that is no Swift
    ///     program is refused without stopping it).
    ///   - body: the reading, given the opened target and the pause that holds it (nil for a core).
    /// - Returns: what `body` returned, and how the process was held (nil for a core).
    func readingStopped<Result>(
        beforeStop: (TargetInspector) throws(LiveReadingError) -> Void = { _ in },
        _ body: (TargetInspector, _ pause: ProcessPause?) throws(LiveReadingError) -> Result
    ) throws(LiveReadingError) -> (result: Result, stop: ReadingStop?) {
        var options = self
        options.pauses = true
        let inspector: TargetInspector
        do {
            inspector = try options.openInspector()
        } catch {
            throw options.vanishedOr(error)
        }
        try beforeStop(inspector)
        return try options.whilePausedStating { pause throws(LiveReadingError) in
            try LiveHeapReader.readingAgainWhileChanging(inspector, pause: pause) { () throws(LiveReadingError) in
                try body(inspector, pause)
            }
        }
    }

    /// ``readingStopped(beforeStop:_:)`` for a report that states how the process was held.
    func readingStopped<Report: StatesReadingStop>(
        _ body: (TargetInspector, _ pause: ProcessPause?) throws(LiveReadingError) -> Report
    ) throws(LiveReadingError) -> Report {
        var (report, stop) = try readingStopped(beforeStop: { _ in }, body)
        if let stop { report.record(stop) }
        return report
    }
}
