-- STSA database schema version 1, as created by the first release (SQLite).
-- Frozen: the upgrade test builds a version-1 file from it; never edit.

CREATE TABLE schema_version (
	version INTEGER NOT NULL,
	applied_at DATETIME NOT NULL,
	CONSTRAINT pk_schema_version PRIMARY KEY (version)
);

CREATE TABLE players (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	name VARCHAR(100) NOT NULL,
	name_key VARCHAR(100) NOT NULL,
	club VARCHAR(100) DEFAULT '' NOT NULL,
	email VARCHAR(254) DEFAULT '' NOT NULL,
	extra TEXT DEFAULT '{}' NOT NULL,
	status VARCHAR(16) DEFAULT 'active' NOT NULL,
	checked_in BOOLEAN DEFAULT 0 NOT NULL,
	created_by VARCHAR(100) NOT NULL,
	created_at DATETIME NOT NULL,
	CONSTRAINT ck_players_status CHECK (status IN ('active', 'withdrawn')),
	CONSTRAINT uq_players_name_key UNIQUE (name_key)
);

CREATE TABLE sittings (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	kind VARCHAR(16) NOT NULL,
	number INTEGER NOT NULL,
	seed VARCHAR(40) NOT NULL,
	status VARCHAR(16) NOT NULL,
	created_by VARCHAR(100) NOT NULL,
	created_at DATETIME NOT NULL,
	published_at DATETIME,
	completed_at DATETIME,
	CONSTRAINT uq_sittings_kind_number UNIQUE (kind, number),
	CONSTRAINT ck_sittings_kind CHECK (kind IN ('qualifier', 'semifinal', 'final')),
	CONSTRAINT ck_sittings_status CHECK (status IN ('drawn', 'published', 'complete'))
);

CREATE TABLE settings (
	"key" VARCHAR(64) NOT NULL,
	value TEXT NOT NULL,
	updated_by VARCHAR(100) NOT NULL,
	updated_at DATETIME NOT NULL,
	CONSTRAINT pk_settings PRIMARY KEY ("key")
);

CREATE TABLE users (
	role VARCHAR(16) NOT NULL,
	pin_hash VARCHAR(200) NOT NULL,
	updated_by VARCHAR(100) NOT NULL,
	updated_at DATETIME NOT NULL,
	CONSTRAINT pk_users PRIMARY KEY (role)
);

CREATE TABLE events (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	at DATETIME NOT NULL,
	actor VARCHAR(100) NOT NULL,
	role VARCHAR(16) NOT NULL,
	action VARCHAR(64) NOT NULL,
	subject VARCHAR(200) NOT NULL,
	"before" TEXT,
	"after" TEXT
);

CREATE TABLE tables (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
	sitting_id INTEGER NOT NULL,
	table_no INTEGER NOT NULL,
	setup_id VARCHAR(100) NOT NULL,
	removed_leaders TEXT DEFAULT '[]' NOT NULL,
	available_leaders TEXT DEFAULT '[]' NOT NULL,
	setup_override BOOLEAN DEFAULT 0 NOT NULL,
	result_version INTEGER DEFAULT '0' NOT NULL,
	CONSTRAINT uq_tables_sitting_id_table_no UNIQUE (sitting_id, table_no),
	CONSTRAINT ck_tables_result_version CHECK (result_version >= 0),
	CONSTRAINT fk_tables_sitting_id_sittings FOREIGN KEY(sitting_id) REFERENCES sittings (id) ON DELETE CASCADE
);

CREATE TABLE sit_outs (
	sitting_id INTEGER NOT NULL,
	player_id INTEGER NOT NULL,
	CONSTRAINT pk_sit_outs PRIMARY KEY (sitting_id, player_id),
	CONSTRAINT fk_sit_outs_sitting_id_sittings FOREIGN KEY(sitting_id) REFERENCES sittings (id) ON DELETE CASCADE,
	CONSTRAINT fk_sit_outs_player_id_players FOREIGN KEY(player_id) REFERENCES players (id)
);

CREATE TABLE absences (
	stage VARCHAR(16) NOT NULL,
	player_id INTEGER NOT NULL,
	marked_by VARCHAR(100) NOT NULL,
	marked_at DATETIME NOT NULL,
	CONSTRAINT pk_absences PRIMARY KEY (stage, player_id),
	CONSTRAINT fk_absences_player_id_players FOREIGN KEY(player_id) REFERENCES players (id)
);

CREATE TABLE seats (
	table_id INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	sitting_id INTEGER NOT NULL,
	player_id INTEGER NOT NULL,
	colour VARCHAR(32) NOT NULL,
	pick_order INTEGER NOT NULL,
	CONSTRAINT pk_seats PRIMARY KEY (table_id, seat),
	CONSTRAINT uq_seats_table_id_player_id UNIQUE (table_id, player_id),
	CONSTRAINT uq_seats_sitting_id_player_id UNIQUE (sitting_id, player_id),
	CONSTRAINT ck_seats_seat CHECK (seat >= 1),
	CONSTRAINT fk_seats_table_id_tables FOREIGN KEY(table_id) REFERENCES tables (id) ON DELETE CASCADE,
	CONSTRAINT fk_seats_sitting_id_sittings FOREIGN KEY(sitting_id) REFERENCES sittings (id) ON DELETE CASCADE,
	CONSTRAINT fk_seats_player_id_players FOREIGN KEY(player_id) REFERENCES players (id)
);

CREATE TABLE submissions (
	submission_id VARCHAR(100) NOT NULL,
	table_id INTEGER NOT NULL,
	version INTEGER NOT NULL,
	outcome TEXT NOT NULL,
	saved_by VARCHAR(100) NOT NULL,
	saved_at DATETIME NOT NULL,
	CONSTRAINT pk_submissions PRIMARY KEY (submission_id),
	CONSTRAINT fk_submissions_table_id_tables FOREIGN KEY(table_id) REFERENCES tables (id)
);

CREATE TABLE results (
	table_id INTEGER NOT NULL,
	player_id INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	leader VARCHAR(100) NOT NULL,
	vp INTEGER NOT NULL,
	spice INTEGER NOT NULL,
	solari INTEGER NOT NULL,
	troops INTEGER NOT NULL,
	water INTEGER NOT NULL,
	variant_points INTEGER DEFAULT '0' NOT NULL,
	tiebreak INTEGER,
	version INTEGER NOT NULL,
	saved_by VARCHAR(100) NOT NULL,
	saved_at DATETIME NOT NULL,
	submission_id VARCHAR(100),
	CONSTRAINT pk_results PRIMARY KEY (table_id, player_id),
	CONSTRAINT fk_results_seat FOREIGN KEY(table_id, player_id) REFERENCES seats (table_id, player_id),
	CONSTRAINT ck_results_counts CHECK (vp >= 0 AND spice >= 0 AND solari >= 0 AND troops >= 0 AND water >= 0),
	CONSTRAINT ck_results_version CHECK (version >= 1)
);

CREATE INDEX ix_events_action ON events (action);

CREATE INDEX ix_events_subject ON events (subject);

CREATE INDEX ix_seats_player_id ON seats (player_id);

CREATE INDEX ix_submissions_table_id ON submissions (table_id);

CREATE INDEX ix_results_player_id ON results (player_id);
