// TypeInfo: in-process metadata reading.
