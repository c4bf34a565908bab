"""The game's features beside the table, each its logic and its part of the state (pure): the
player's record, the hand review and coach, the daily deal, the house rules, export and import, sound."""
