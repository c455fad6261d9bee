// Types declared in a second module, read by TypeInfoTests.
