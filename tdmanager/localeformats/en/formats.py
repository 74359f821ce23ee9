"""The product's English is the card rooms' of Europe: day before month and the 24-hour clock
("28/11/2026 21:05"), where Django's default English is the United States' ("11/28/2026 9:05 p.m.")."""

SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
