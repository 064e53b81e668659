"""What an analysis and a summary consist of: the section vocabulary every other part agrees on."""
