"""Step 3, judging: each claim held against the code's facts and history, with evidence."""
