"""What the page shows, as HTML from the state (pure, every value escaped): the table's regions, the
panels and sheets, the chart, the sentences, and the translation lookup they use."""
